package mcpgen_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/everything"
	"github.com/mcpgen/mcpgen/generated/everything/everythingclient"
)

// The typed client's methods beyond calls, in both eras: CheckSurface
// over every primitive, completion per argument of a prompt and of a
// template, a subscription to a resource, and a task tool started as a
// task with its result typed.
func TestTypedClientFeatures(t *testing.T) {
	everythingClients(t, mcpgen.Options{Tasks: true}, mcpgen.ClientOptions{}, func(t *testing.T, srv *mcpgen.Server, conn *mcpgen.Client) {
		ctx := context.Background()
		c := everythingclient.New(conn)
		if err := c.CheckSurface(ctx); err != nil {
			t.Errorf("CheckSurface against the server it was generated from: %v", err)
		}

		all, err := c.CompletePromptWithArgumentsArg1(ctx, everythingclient.PromptWithArguments{}, "")
		if err != nil || len(all.Values) < 2 {
			t.Fatalf("complete arg1: %+v, %v", all, err)
		}
		prefix := all.Values[1][:1]
		some, err := c.CompletePromptWithArgumentsArg1(ctx, everythingclient.PromptWithArguments{Arg2: "x"}, prefix)
		if err != nil || len(some.Values) == 0 || len(some.Values) >= len(all.Values) {
			t.Errorf("complete arg1 from %q: %+v, %v (all: %v)", prefix, some, err, all.Values)
		}
		for _, v := range some.Values {
			if !strings.HasPrefix(v, prefix) {
				t.Errorf("completion %q does not start with %q", v, prefix)
			}
		}
		ids, err := c.CompleteTemplateDataID(ctx, "al", nil)
		if err != nil || !slices.Equal(ids.Values, []string{"alpha"}) {
			t.Errorf("complete {id}: %+v, %v", ids, err)
		}

		updated := make(chan string, 10)
		sub, err := c.SubscribeWatchedResource(ctx, func(uri string) { updated <- uri })
		if err != nil {
			t.Fatalf("subscribe: %v", err)
		}
		srv.ResourceUpdated("test://watched-resource")
		if uri := <-updated; uri != "test://watched-resource" {
			t.Errorf("updated %q", uri)
		}
		if err := sub.Close(); err != nil {
			t.Errorf("close: %v", err)
		}

		task, err := c.StartSlowCompute(ctx, everythingclient.SlowCompute{Seconds: 0, Label: "typed"})
		if conn.ProtocolVersion() != mcpgen.LatestVersion {
			if err == nil {
				t.Errorf("a legacy session started a task on a server that declares none")
			}
			return
		}
		if err != nil || task.ID() == "" {
			t.Fatalf("start: %+v, %v", task, err)
		}
		text, err := task.Result(ctx)
		if err != nil || !strings.HasPrefix(text, "Finished typed") {
			t.Errorf("typed task result: %q, %v", text, err)
		}
	})
}

// Surface.Check compares every primitive: a resource or template missing
// or of another MIME type, a prompt missing, an argument the server
// requires that the client does not know or may leave out, one it does
// not take, a skill missing; what matches is no difference, nor what the
// server offers beyond the surface.
func TestSurfaceCheckPrimitives(t *testing.T) {
	ctx := context.Background()
	srv := everything.New(mcpgen.Options{})
	defer srv.Close()
	conn, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	same := mcpgen.Surface{
		Resources: []mcpgen.SurfaceResource{{URI: "test://static-text", MimeType: "text/plain"}, {URI: "test://template/{id}/data", MimeType: "application/json", Template: true}},
		Prompts:   []mcpgen.SurfacePrompt{{Name: "test_prompt_with_arguments", Arguments: []mcpgen.SurfaceArgument{{Name: "arg1", Required: true}, {Name: "arg2", Required: true}}}},
		Skills:    []mcpgen.SurfaceSkill{{URI: "skill://pdf-processing/SKILL.md"}},
	}
	if err := same.Check(ctx, conn); err != nil {
		t.Errorf("the same surface: %v", err)
	}
	changed := mcpgen.Surface{
		Resources: []mcpgen.SurfaceResource{
			{URI: "test://static-text", MimeType: "text/markdown"},
			{URI: "test://gone"},
			{URI: "test://template/{id}/data", MimeType: "application/json", Template: true},
			{URI: "test://template/{id}/other", Template: true},
		},
		Prompts: []mcpgen.SurfacePrompt{
			{Name: "test_prompt_with_arguments", Arguments: []mcpgen.SurfaceArgument{{Name: "arg1"}, {Name: "arg3"}}},
			{Name: "test_gone"},
		},
		Skills: []mcpgen.SurfaceSkill{{URI: "skill://gone/SKILL.md"}},
	}
	err = changed.Check(ctx, conn)
	var se *mcpgen.SurfaceError
	if !errors.As(err, &se) {
		t.Fatalf("Check = %v, want a *SurfaceError", err)
	}
	want := []string{
		`resource test://static-text: the server declares MIME type "text/plain"; the client expects "text/markdown"`,
		`resource test://gone: the server does not offer it`,
		`resource template test://template/{id}/other: the server does not offer it`,
		`prompt test_prompt_with_arguments: the server requires the argument arg1, which the client may leave out`,
		`prompt test_prompt_with_arguments: the server requires the argument arg2, which the client does not know`,
		`prompt test_prompt_with_arguments: the server takes no argument arg3`,
		`prompt test_gone: the server does not offer it`,
		`skill skill://gone/SKILL.md: the server does not offer it`,
	}
	if !slices.Equal(se.Differences, want) {
		t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(se.Differences, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasPrefix(err.Error(), "the server's surface differs from the client's (8 difference(s))") {
		t.Errorf("message %q", err)
	}
}
