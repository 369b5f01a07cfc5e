package jsontag

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	for tag, want := range map[string]Tag{
		``:                            {},
		`json:"-"`:                    {Skip: true},
		`json:"-,"`:                   {Name: "-"},
		`json:"a,omitempty,omitzero"`: {Name: "a", OmitEmpty: true, OmitZero: true},
		`json:",string"`:              {String: true},
		`json:"na'me"`:                {Invalid: "na'me"},
		`json:"x,omitemtpy"`:          {Name: "x", Unknown: []string{"omitemtpy"}},
		`xml:"a" json:"名前"`:           {Name: "名前"},
	} {
		if got := Parse(tag); !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%s) = %+v, want %+v", tag, got, want)
		}
	}
}
