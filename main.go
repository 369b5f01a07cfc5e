package mcpgen

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime"
	"strings"
)

// Main is the whole main function of a server binary without commands of
// its own. It parses the common flags and those of the linked
// integrations (with about as the usage text), makes the dependencies,
// builds the server with newServer and serves it until EOF on stdio or a
// signal. Then it closes the server, the integrations, and every
// dependency that implements [io.Closer], last made first.
//
// newServer is a generated package's New, whatever its dependencies: a
// function whose last parameter is [Options] and whose result is
// [*Server]. Every parameter before Options is made by one of deps:
//
//	func main() {
//		mcpgen.Main("notes", "Serves notes over MCP.", notes.New,
//			mcpgen.Provide(func(ctx context.Context) (*component.Store, error) {
//				return component.OpenStore(ctx, "notes.db")
//			}))
//	}
//
// Errors are one line on stderr. The exit status is 2 for a usage error
// (a bad flag, a newServer or deps that do not fit), 1 when the server
// cannot start (a dependency fails, the address is taken) or serving
// fails, and 0 after a clean shutdown.
func Main(name, about string, newServer any, deps ...Dependency) {
	os.Exit(runMain(name, about, newServer, deps, os.Args[1:], os.Stderr, os.Stdin, os.Stdout))
}

// runMain is Main with its arguments and standard files given, returning
// the exit status.
func runMain(name, about string, newServer any, deps []Dependency, args []string, stderr io.Writer, stdin io.Reader, stdout io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return ExitCode(err)
	}
	build, err := constructor(newServer, deps)
	if err != nil {
		return fail(UsageError(err))
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := Flags{stdin: stdin, stdout: stdout}
	f.Register(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s [flags]\n\n%s\n\n", name, about)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2 // the flag package printed the error and the usage
	}
	if fs.NArg() > 0 {
		return fail(UsageError(fmt.Errorf("unexpected argument %q (see -h)", fs.Arg(0))))
	}
	log, err := f.Logger()
	if err != nil {
		return fail(err)
	}
	defer log.Sync()
	opts, err := f.ServerOptions(name, log)
	if err != nil {
		return fail(fmt.Errorf("cannot start: %w", err))
	}
	srv, closeDeps, err := build(context.Background(), opts)
	if err != nil {
		f.Close()
		return fail(fmt.Errorf("cannot start: %w", err))
	}
	err = f.Run(srv, log)
	if cerr := closeDeps(); cerr != nil {
		log.Warn("closing dependencies: " + cerr.Error())
	}
	if err != nil {
		return fail(err)
	}
	return 0
}

// Dependency makes one argument of a generated New for [Main]; make one
// with [Provide].
type Dependency struct {
	typ   reflect.Type
	build func(context.Context) (any, error)
}

// Provide returns the [Dependency] that build makes: Main calls build once,
// after the flags are parsed and before the server is built, and passes
// its result to every parameter of newServer that a T can be passed to
// (T itself, or an interface T implements). A result that
// implements [io.Closer] is closed once the server has stopped.
func Provide[T any](build func(context.Context) (T, error)) Dependency {
	return Dependency{
		typ: reflect.TypeFor[T](),
		build: func(ctx context.Context) (any, error) {
			v, err := build(ctx)
			return v, err
		},
	}
}

// funcName names fn for messages: its package path and name, e.g.
// example.com/notes/generated/notes.New.
func funcName(fn reflect.Value) string {
	if f := runtime.FuncForPC(fn.Pointer()); f != nil {
		return f.Name()
	}
	return "the server's New"
}

var (
	optionsType = reflect.TypeFor[Options]()
	serverType  = reflect.TypeFor[*Server]()
)

// constructor checks newServer and deps against each other and returns
// the function that makes the dependencies and the server, and a closer
// of the dependencies.
func constructor(newServer any, deps []Dependency) (func(context.Context, Options) (*Server, func() error, error), error) {
	fn := reflect.ValueOf(newServer)
	t := fn.Type()
	if fn.Kind() != reflect.Func || t.IsVariadic() || t.NumIn() == 0 || t.In(t.NumIn()-1) != optionsType || t.NumOut() != 1 || t.Out(0) != serverType {
		return nil, fmt.Errorf("Main needs a generated New, a func(deps..., mcpgen.Options) *mcpgen.Server; got %s", t)
	}
	use := make([]int, t.NumIn()-1) // parameter -> index in deps
	var missing []string
	for i := range use {
		use[i] = -1
		for j, d := range deps {
			if d.typ != nil && d.typ.AssignableTo(t.In(i)) {
				use[i] = j
				break
			}
		}
		if use[i] < 0 {
			missing = append(missing, t.In(i).String())
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s needs %s: pass mcpgen.Provide(func(ctx context.Context) (%s, error) { ... }) to Main for each", funcName(fn), strings.Join(missing, ", "), missing[0])
	}
	return func(ctx context.Context, opts Options) (*Server, func() error, error) {
		made := make([]any, len(deps))
		done := make([]bool, len(deps))
		var closers []io.Closer
		closeAll := func() error {
			var errs []error
			for i := len(closers) - 1; i >= 0; i-- {
				errs = append(errs, closers[i].Close())
			}
			return errors.Join(errs...)
		}
		args := make([]reflect.Value, 0, t.NumIn())
		for i, j := range use {
			if !done[j] {
				v, err := deps[j].build(ctx)
				if err != nil {
					_ = closeAll()
					return nil, nil, fmt.Errorf("%s: %w", deps[j].typ, err)
				}
				made[j], done[j] = v, true
				if c, ok := v.(io.Closer); ok {
					closers = append(closers, c)
				}
			}
			arg := reflect.Zero(t.In(i))
			if made[j] != nil {
				arg = reflect.ValueOf(made[j]).Convert(t.In(i))
			}
			args = append(args, arg)
		}
		args = append(args, reflect.ValueOf(opts))
		srv := fn.Call(args)[0].Interface().(*Server)
		return srv, closeAll, nil
	}, nil
}
