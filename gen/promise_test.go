package gen_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	mrand "math/rand"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/jsonschema"
)

// The generator's promise: every package mcpgen accepts compiles, and every
// schema describes the JSON on the wire. TestPromise checks it on random
// component packages (promise_gen_test.go): mcpgen must accept each, the
// output must compile, every value of an input or output type that Go
// encodes must validate against its schema, and every value the input
// schema accepts must decode into the input type with encoding/json
// (integers within 64 bits: int, int64 and uint64 leave their range to the
// decoder).
// FuzzPromise does the same for one seed per input, for long runs:
//
//	go test ./gen -run '^$' -fuzz FuzzPromise -fuzztime 10m

// promiseSeeds is how many random packages `go test` checks (one
// generator run and one build for all of them); MCPGEN_PROMISE_SEEDS
// overrides it.
const promiseSeeds = 40

func TestPromise(t *testing.T) {
	if testing.Short() {
		t.Skip("generates, builds and runs random servers")
	}
	n := promiseSeeds
	if s := os.Getenv("MCPGEN_PROMISE_SEEDS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	base := time.Now().UnixNano()
	if s := os.Getenv("MCPGEN_PROMISE_BASE"); s != "" {
		base, _ = strconv.ParseInt(s, 10, 64)
	}
	seeds := make([]int64, n)
	for i := range seeds {
		seeds[i] = base + int64(i)
	}
	t.Logf("seeds %d..%d (rerun one with MCPGEN_PROMISE_BASE=<seed> MCPGEN_PROMISE_SEEDS=1)", seeds[0], seeds[n-1])
	checkPromise(t, seeds)
}

func FuzzPromise(f *testing.F) {
	if testing.Short() {
		f.Skip("slow (generates, builds and runs random servers); runs without -short")
	}
	for _, s := range []int64{1, 2, 3, 42} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed int64) { checkPromise(t, []int64{seed}) })
}

// promiseMain is the program that produces and decodes values; %[1]s
// imports the random packages and their generated servers, %[2]s lists
// the tools, %[3]s calls each generated New.
const promiseMain = `// Command promise encodes random values of the tools' input and output
// types, or decodes JSON into the input types.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"net/netip"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/mcpgen/mcpgen"
%[1]s)

type tool struct {
	key string
	in  reflect.Type
}

var tools = []tool{
%[2]s}

func main() {
	// Every generated server must construct (its schemas compile).
%[3]s
	switch os.Args[1] {
	case "encode":
		seed, _ := strconv.ParseInt(os.Args[2], 10, 64)
		encode(rand.New(rand.NewSource(seed)))
	case "decode":
		decode()
	}
}

func encode(r *rand.Rand) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, t := range tools {
		out := reflect.Zero(t.in).MethodByName("Call").Type().Out(0)
		for i := 0; i < 40; i++ {
			for _, c := range []struct {
				dir string
				typ reflect.Type
			}{{"input", t.in}, {"output", out}} {
				v := fill(r, c.typ, 0, true)
				b, err := json.Marshal(v.Interface())
				if err != nil {
					fmt.Fprintf(os.Stderr, "%%s %%s: marshal: %%v\n", t.key, c.dir, err)
					os.Exit(1)
				}
				fmt.Fprintf(w, "%%s\t%%s\t%%s\n", t.key, c.dir, b)
			}
		}
	}
}

func decode() {
	byKey := map[string]reflect.Type{}
	for _, t := range tools {
		byKey[t.key] = t.in
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		key, doc, _ := strings.Cut(sc.Text(), "\t")
		v := reflect.New(byKey[key])
		if err := json.Unmarshal([]byte(doc), v.Interface()); err != nil {
			fmt.Printf("%%s\t%%s\t%%v\n", key, doc, err)
		}
	}
}

var alphabet = []string{"a", "Z", "0", " ", "\"", "\\", "<", ">", "&", "\n", "\x01", "é", "Å", "名", "🙂", "\u2028", "\xff", "/", "'", "%%"}

func str(r *rand.Rand) string {
	var b strings.Builder
	for n := r.Intn(6); n > 0; n-- {
		b.WriteString(alphabet[r.Intn(len(alphabet))])
	}
	return b.String()
}

var (
	timeType   = reflect.TypeFor[time.Time]()
	bigType    = reflect.TypeFor[big.Int]()
	numberType = reflect.TypeFor[json.Number]()
	uuidType   = reflect.TypeFor[uuid.UUID]()
	addrType   = reflect.TypeFor[netip.Addr]()
)

// fill makes a random value of t: nil pointers, slices and maps often,
// extreme numbers often, strings with escapes and invalid UTF-8.
func fill(r *rand.Rand, t reflect.Type, depth int, root bool) reflect.Value {
	v := reflect.New(t).Elem()
	switch t {
	case timeType:
		zone := time.FixedZone("", (r.Intn(29)-14)*3600+r.Intn(2)*1800)
		v.Set(reflect.ValueOf(time.Date(1+r.Intn(9998), time.Month(1+r.Intn(12)), 1+r.Intn(28), r.Intn(24), r.Intn(60), r.Intn(60), r.Intn(2)*r.Intn(1e9), zone)))
		return v
	case bigType:
		n, _ := new(big.Int).SetString(strconv.FormatInt(r.Int63(), 10)+strconv.FormatInt(r.Int63(), 10), 10)
		if r.Intn(2) == 0 {
			n.Neg(n)
		}
		v.Set(reflect.ValueOf(*n))
		return v
	case numberType:
		v.SetString([]string{"0", "-1", "1.5e300", "12345678901234567890", strconv.FormatFloat(r.NormFloat64(), 'g', -1, 64), ""}[r.Intn(6)])
		return v
	case uuidType:
		v.Set(reflect.ValueOf(uuid.New()))
		return v
	case addrType:
		var a netip.Addr
		switch r.Intn(3) {
		case 1:
			a = netip.AddrFrom4([4]byte{byte(r.Intn(256)), byte(r.Intn(256)), 0, 1})
		case 2:
			a = netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 15: byte(r.Intn(256))})
		}
		v.Set(reflect.ValueOf(a))
		return v
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(r.Intn(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		switch r.Intn(4) {
		case 0:
			v.SetInt(-1 << (bits - 1))
		case 1:
			v.SetInt(1<<(bits-1) - 1)
		default:
			v.SetInt(r.Int63n(200) - 100)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if r.Intn(3) == 0 {
			v.SetUint(math.MaxUint64 >> (64 - t.Bits()))
		} else {
			v.SetUint(uint64(r.Intn(200)))
		}
	case reflect.Float32:
		v.SetFloat(float64([]float32{0, -1.5, math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, float32(r.NormFloat64())}[r.Intn(6)]))
	case reflect.Float64:
		v.SetFloat([]float64{0, math.Copysign(0, -1), math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, r.NormFloat64() * 1e10}[r.Intn(6)])
	case reflect.String:
		v.SetString(str(r))
	case reflect.Pointer:
		if root || (depth < 3 && r.Intn(3) != 0) {
			v.Set(fill(r, t.Elem(), depth+1, false).Addr())
		}
	case reflect.Slice:
		if depth >= 3 || r.Intn(4) == 0 {
			break
		}
		n := r.Intn(3)
		v.Set(reflect.MakeSlice(t, n, n))
		for i := 0; i < n; i++ {
			v.Index(i).Set(fill(r, t.Elem(), depth+1, false))
		}
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			v.Index(i).Set(fill(r, t.Elem(), depth+1, false))
		}
	case reflect.Map:
		if !root && (depth >= 3 || r.Intn(4) == 0) {
			break
		}
		v.Set(reflect.MakeMap(t))
		for n := r.Intn(3); n > 0 && depth < 3; n-- {
			v.SetMapIndex(fill(r, t.Key(), depth+1, false), fill(r, t.Elem(), depth+1, false))
		}
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				f.Set(fill(r, t.Field(i).Type, depth+1, false))
			}
		}
	}
	return v
}
`

// checkPromise runs the property on one random package per seed.
func checkPromise(t *testing.T, seeds []int64) {
	var tag [4]byte
	_, _ = rand.Read(tag[:])
	rel := "testdata/promise_" + hex.EncodeToString(tag[:])
	if err := os.Mkdir(rel, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rel) })
	var pkgs []propPkg
	var patterns []string
	for i, seed := range seeds {
		p := randomPackage(seed, fmt.Sprintf("p%d", i))
		dir := filepath.Join(rel, p.Name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p.Name+".go"), []byte(p.Source), 0o644); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
		patterns = append(patterns, "./"+filepath.ToSlash(dir))
	}
	describe := func() string {
		var b strings.Builder
		for i, p := range pkgs {
			fmt.Fprintf(&b, "\n--- seed %d:\n%s", seeds[i], p.Source)
		}
		return b.String()
	}

	// 1. mcpgen accepts every package.
	res, err := gen.Generate(context.Background(), gen.Config{Patterns: patterns})
	if err != nil {
		t.Fatalf("mcpgen refused a package the manual accepts:\n%v%s", err, describe())
	}
	schemas := map[string]*jsonschema.Schema{}
	docs := map[string][]byte{}
	for _, f := range res.Files {
		if dir, file := path.Split(f.Path); strings.HasSuffix(dir, "/schemas/") {
			key := strings.TrimSuffix(dir, "/schemas/") + "/" + strings.TrimSuffix(file, ".json")
			s, err := jsonschema.Compile(f.Content)
			if err != nil {
				t.Fatalf("schema %s does not compile: %v", f.Path, err)
			}
			schemas[key], docs[key] = s, f.Content
		}
	}

	// 2. The output compiles, with a program that uses every server.
	modRel := "gen/" + rel
	o := newOverlay(t)
	for _, f := range res.Files {
		o.add(path.Join(modRel, "out", f.Path), f.Content)
	}
	var imports, list, news strings.Builder
	for _, p := range pkgs {
		fmt.Fprintf(&imports, "\t%s %q\n\tg%s %q\n", p.Name, modulePath+"/"+modRel+"/"+p.Name, p.Name, modulePath+"/"+modRel+"/out/"+p.Name)
		fmt.Fprintf(&news, "\t_ = g%s.New(mcpgen.Options{})\n", p.Name)
		for _, tl := range p.Tools {
			fmt.Fprintf(&list, "\t{%q, reflect.TypeFor[%s.%s]()},\n", p.Name+"/"+tl.Name, p.Name, tl.Type)
		}
	}
	o.add(path.Join(modRel, "out", "cmd", "main.go"), fmt.Appendf(nil, promiseMain, imports.String(), list.String(), news.String()))
	bin := filepath.Join(t.TempDir(), "promise")
	if out, err := goCmd(t, "build", "-overlay", o.file(), "-o", bin, "./"+modRel+"/out/cmd"); err != nil {
		t.Fatalf("the generated code does not compile:\n%s%s", out, describe())
	}

	// 3. Every value Go encodes validates against its schema.
	cmd := exec.Command(bin, "encode", strconv.FormatInt(seeds[0], 10))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("encode: %v\n%s", err, stderr.String())
	}
	failures, checked, skipped := 0, 0, 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), "\t", 3)
		key := parts[0] + "." + parts[1]
		s := schemas[key]
		if s == nil {
			t.Fatalf("no schema %s", key)
		}
		if bytes.Contains(docs[key], []byte(`"title": "`+constrainedTitle+`"`)) {
			skipped++
			continue // Go values may break constraint tags
		}
		checked++
		value := []byte(parts[2])
		if parts[1] == "output" {
			// What the runtime sends: a nil slice as [] (runTool).
			value, _ = s.FillNullArrays(value)
		}
		if err := s.Validate(value); err != nil && failures < 5 {
			failures++
			t.Errorf("%s: Go encodes %s, which its schema refuses: %v\nschema: %s", key, parts[2], err, docs[key])
		}
	}
	if failures > 0 {
		t.Fatalf("schemas refuse what Go writes%s", describe())
	}

	// 4. Every value an input schema accepts decodes.
	var in bytes.Buffer
	r := mrand.New(mrand.NewSource(seeds[0]))
	for _, p := range pkgs {
		for _, tl := range p.Tools {
			key := p.Name + "/" + tl.Name
			var root map[string]any
			dec := json.NewDecoder(bytes.NewReader(docs[key+".input"]))
			dec.UseNumber()
			if err := dec.Decode(&root); err != nil {
				t.Fatal(err)
			}
			g := &instGen{r: r, root: root}
			for i := 0; i < 40; i++ {
				v, err := g.gen(root, 0)
				if err != nil {
					t.Fatalf("%s: %v\nschema: %s", key, err, docs[key+".input"])
				}
				b, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if err := schemas[key+".input"].Validate(b); err != nil {
					t.Fatalf("%s: the test's instance generator made %s, which the schema refuses (a bug of the test): %v\nschema: %s", key, b, err, docs[key+".input"])
				}
				fmt.Fprintf(&in, "%s\t%s\n", key, b)
			}
		}
	}
	t.Logf("%d packages: %d Go values validated against their schemas (%d skipped: constraint tags), %d schema instances decoded",
		len(pkgs), checked, skipped, strings.Count(in.String(), "\n"))
	cmd = exec.Command(bin, "decode")
	cmd.Stdin = &in
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, stderr.String())
	}
	if len(out) > 0 {
		lines := strings.SplitN(string(out), "\n", 6)
		t.Fatalf("values the input schema accepts do not decode (key, JSON, error):\n%s%s", strings.Join(lines[:min(5, len(lines))], "\n"), describe())
	}
}

// instGen makes random JSON values that a schema accepts: it knows the
// keywords mcpgen emits, and makes strings for a pattern by trying
// candidates of the shapes mcpgen's patterns describe.
type instGen struct {
	r    *mrand.Rand
	root map[string]any
}

func (g *instGen) gen(s map[string]any, depth int) (any, error) {
	if ref, ok := s["$ref"].(string); ok {
		target := g.root
		if ref != "#" {
			name, ok := strings.CutPrefix(ref, "#/$defs/")
			if !ok {
				return nil, fmt.Errorf("unexpected $ref %s", ref)
			}
			target, _ = g.root["$defs"].(map[string]any)[name].(map[string]any)
		}
		return g.gen(target, depth)
	}
	if alts, ok := s["anyOf"].([]any); ok {
		pick := alts[g.r.Intn(len(alts))].(map[string]any)
		if depth > 3 {
			for _, a := range alts {
				if a.(map[string]any)["type"] == "null" {
					pick = a.(map[string]any)
				}
			}
		}
		return g.gen(pick, depth)
	}
	if enum, ok := s["enum"].([]any); ok {
		return enum[g.r.Intn(len(enum))], nil
	}
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			types = append(types, x.(string))
		}
	default:
		return nil, fmt.Errorf("schema without a type: %v", s)
	}
	typ := types[g.r.Intn(len(types))]
	if depth > 3 && len(types) > 1 && types[len(types)-1] == "null" {
		typ = "null"
	}
	switch typ {
	case "null":
		return nil, nil
	case "boolean":
		return g.r.Intn(2) == 0, nil
	case "integer":
		return g.integer(s)
	case "number":
		return g.number(s)
	case "string":
		return g.str(s)
	case "array":
		items, _ := s["items"].(map[string]any)
		lo, hi := 0, 3
		if n, ok := s["minItems"].(json.Number); ok {
			lo64, _ := n.Int64()
			lo = int(lo64)
		}
		if n, ok := s["maxItems"].(json.Number); ok {
			hi64, _ := n.Int64()
			hi = int(hi64)
		}
		n := lo
		if depth <= 3 && hi > lo {
			n += g.r.Intn(hi - lo + 1)
		}
		// uniqueItems: an item equal to an earlier one is made again (the
		// generator draws strings from a small set, so two of two often
		// coincide).
		unique, _ := s["uniqueItems"].(bool)
		seen := map[string]bool{}
		arr := []any{}
		for i := 0; i < n; i++ {
			for try := 0; ; try++ {
				v, err := g.gen(items, depth+1)
				if err != nil {
					return nil, err
				}
				b, _ := json.Marshal(v)
				if !unique || !seen[string(b)] {
					seen[string(b)] = true
					arr = append(arr, v)
					break
				}
				if try == 50 {
					return nil, fmt.Errorf("no item unlike the %d before it in 50 tries", len(arr))
				}
			}
		}
		return arr, nil
	case "object":
		obj := map[string]any{}
		required := map[string]bool{}
		for _, k := range asSlice(s["required"]) {
			required[k.(string)] = true
		}
		props, _ := s["properties"].(map[string]any)
		for k, ps := range props {
			if required[k] || (depth <= 3 && g.r.Intn(2) == 0) {
				v, err := g.gen(ps.(map[string]any), depth+1)
				if err != nil {
					return nil, err
				}
				obj[k] = v
			}
		}
		if ap, ok := s["additionalProperties"].(map[string]any); ok && depth <= 3 {
			names, _ := s["propertyNames"].(map[string]any)
			for n := g.r.Intn(3); n > 0; n-- {
				key := ""
				if names != nil {
					k, err := g.str(names)
					if err != nil {
						return nil, err
					}
					key = k
				} else {
					key = g.text()
				}
				v, err := g.gen(ap, depth+1)
				if err != nil {
					return nil, err
				}
				obj[key] = v
			}
		}
		return obj, nil
	}
	return nil, fmt.Errorf("unknown type %q", typ)
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

var texts = []string{"", "a", "Åland", "名前", "\"q\"", "back\\slash", "<&>", "line\nbreak", "\u2028", "🙂", "tab\t"}

func (g *instGen) text() string { return texts[g.r.Intn(len(texts))] + texts[g.r.Intn(len(texts))] }

func bound(s map[string]any, k string) *big.Rat {
	n, ok := s[k].(json.Number)
	if !ok {
		return nil
	}
	r, _ := new(big.Rat).SetString(string(n))
	return r
}

// numOK reports whether x meets the numeric keywords of s.
func numOK(s map[string]any, x *big.Rat) bool {
	if b := bound(s, "minimum"); b != nil && x.Cmp(b) < 0 {
		return false
	}
	if b := bound(s, "maximum"); b != nil && x.Cmp(b) > 0 {
		return false
	}
	if b := bound(s, "exclusiveMinimum"); b != nil && x.Cmp(b) <= 0 {
		return false
	}
	if b := bound(s, "exclusiveMaximum"); b != nil && x.Cmp(b) >= 0 {
		return false
	}
	if m := bound(s, "multipleOf"); m != nil {
		q := new(big.Rat).Quo(x, m)
		if !q.IsInt() {
			return false
		}
	}
	return true
}

func (g *instGen) integer(s map[string]any) (any, error) {
	// A missing bound is the range of a 64-bit integer (int, int64 and
	// uint64 carry none, *big.Int has none): numbers beyond it are left
	// to encoding/json, which refuses them (the runtime answers invalid
	// params), so they are outside the promise. int64's range fits every
	// such type but uint64, whose schema says minimum 0.
	lo, hi := bound(s, "minimum"), bound(s, "maximum")
	if lo == nil {
		lo = new(big.Rat).SetInt64(math.MinInt64)
	}
	if hi == nil {
		hi = new(big.Rat).SetInt64(math.MaxInt64)
	}
	l, h := new(big.Int).Quo(lo.Num(), lo.Denom()), new(big.Int).Quo(hi.Num(), hi.Denom())
	span := new(big.Int).Sub(h, l)
	span.Add(span, big.NewInt(1))
	for i := 0; i < 500; i++ {
		var n *big.Int
		switch g.r.Intn(4) {
		case 0:
			n = new(big.Int).Set(l)
		case 1:
			n = new(big.Int).Set(h)
		case 2:
			n = big.NewInt(g.r.Int63n(21) - 10)
		default:
			n = new(big.Int).Rand(g.r, span)
			n.Add(n, l)
		}
		if numOK(s, new(big.Rat).SetInt(n)) {
			return json.Number(n.String()), nil
		}
	}
	return nil, fmt.Errorf("the test makes no integer for %v", s)
}

func (g *instGen) number(s map[string]any) (any, error) {
	for i := 0; i < 500; i++ {
		var c string
		switch g.r.Intn(4) {
		case 0:
			n, _ := s["minimum"].(json.Number)
			c = string(n)
		case 1:
			n, _ := s["maximum"].(json.Number)
			c = string(n)
		default:
			c = strconv.FormatFloat([]float64{0, -1.5, 1e-300, 3.25e30, g.r.NormFloat64() * 100}[g.r.Intn(5)], 'g', -1, 64)
		}
		r, ok := new(big.Rat).SetString(c)
		if ok && numOK(s, r) {
			return json.Number(c), nil
		}
	}
	return nil, fmt.Errorf("the test makes no number for %v", s)
}

// stringMakers make candidates for patterns, in the shapes mcpgen's
// patterns describe (and the units.Level JSONSchema).
var stringMakers = []func(r *mrand.Rand) string{
	func(r *mrand.Rand) string { // integers of every size
		n := new(big.Int).Rand(r, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(1+r.Intn(20))), nil))
		if r.Intn(2) == 0 {
			n.Neg(n)
		}
		return n.String()
	},
	func(r *mrand.Rand) string { return strconv.FormatFloat(r.NormFloat64()*1e5, 'g', -1, 64) },
	func(r *mrand.Rand) string { // a JSON string literal
		b, _ := json.Marshal(texts[r.Intn(len(texts))])
		return string(b)
	},
	func(r *mrand.Rand) string {
		return base64.StdEncoding.EncodeToString([]byte(texts[r.Intn(len(texts))]))
	},
	func(r *mrand.Rand) string { return "L" + strconv.Itoa(r.Intn(2000)-1000) },
	func(r *mrand.Rand) string { return texts[r.Intn(len(texts))] },
}

func (g *instGen) str(s map[string]any) (string, error) {
	switch s["format"] {
	case "date-time":
		zone := time.FixedZone("", (g.r.Intn(29)-14)*3600)
		return time.Date(1+g.r.Intn(9998), time.Month(1+g.r.Intn(12)), 1+g.r.Intn(28), g.r.Intn(24), g.r.Intn(60), g.r.Intn(60), g.r.Intn(1e9), zone).Format(time.RFC3339Nano), nil
	case "uuid":
		var b [16]byte
		g.r.Read(b[:])
		return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:]), nil
	}
	var re *regexp.Regexp
	if p, ok := s["pattern"].(string); ok {
		var err error
		if re, err = regexp.Compile(p); err != nil {
			return "", err
		}
	}
	lo, hi := int64(0), int64(math.MaxInt64)
	if n, ok := s["minLength"].(json.Number); ok {
		lo, _ = n.Int64()
	}
	if n, ok := s["maxLength"].(json.Number); ok {
		hi, _ = n.Int64()
	}
	for i := 0; i < 1000; i++ {
		c := g.text()
		if re != nil {
			c = stringMakers[g.r.Intn(len(stringMakers))](g.r)
			if !re.MatchString(c) {
				continue
			}
		}
		if n := int64(utf8.RuneCountInString(c)); n >= lo && n <= hi {
			return c, nil
		}
	}
	return "", fmt.Errorf("the test makes no string for %v", s)
}
