package mcpgen

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// Main is the whole main function of a server binary without commands of
// its own. It parses the common flags and those of the linked
// integrations (with name and about in the usage text), then calls build
// with the server options they ask for, and serves the server build
// returns until EOF on stdio or a signal. Then it closes the server and
// the integrations, and calls the release function build returned.
//
// Every generated server package has a Main that calls this one with a
// build that makes the server's dependencies and calls its New; it takes
// one func(context.Context) (T, error) per dependency, so that a main
// that forgets one, or gives one of the wrong type, does not compile:
//
//	func main() {
//		notes.Main("Serves notes over MCP.", func(ctx context.Context) (*component.Store, error) {
//			return component.OpenStore(ctx, "notes.db")
//		})
//	}
//
// A main that sets options of its own, or names the program otherwise,
// calls Main with its own build:
//
//	func main() {
//		mcpgen.Main("notes-server", "Serves notes over MCP.", func(ctx context.Context, opts mcpgen.Options) (*mcpgen.Server, func() error, error) {
//			store, err := component.OpenStore(ctx, "notes.db")
//			if err != nil {
//				return nil, nil, err
//			}
//			opts.Tasks = true
//			return notes.New(store, opts), store.Close, nil
//		})
//	}
//
// release, when not nil, is called once: after the server has stopped,
// or, when build fails, at once (to release what it made before it
// failed).
//
// Errors are one line on stderr, after name. The exit status is 2 for a
// usage error (a bad flag), 1 when the server cannot start (build fails,
// the address is taken) or serving fails, and 0 after a clean shutdown.
func Main(name, about string, build func(ctx context.Context, opts Options) (srv *Server, release func() error, err error)) {
	os.Exit(runMain(name, about, build, os.Args[1:], os.Stderr, os.Stdin, os.Stdout))
}

// runMain is Main with its arguments and standard files given, returning
// the exit status.
func runMain(name, about string, build func(context.Context, Options) (*Server, func() error, error), args []string, stderr io.Writer, stdin io.Reader, stdout io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return ExitCode(err)
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
	srv, release, err := build(context.Background(), opts)
	if err != nil {
		if release != nil {
			_ = release() // the failure is what gets reported
		}
		f.Close()
		return fail(fmt.Errorf("cannot start: %w", err))
	}
	err = f.Run(srv, log)
	if release != nil {
		if rerr := release(); rerr != nil {
			log.Warn("closing dependencies: " + rerr.Error())
		}
	}
	if err != nil {
		return fail(err)
	}
	return 0
}

// Dependencies are the dependencies a generated Main made for its server
// with [MakeDependency], to close once the server has stopped. The zero
// value holds none.
type Dependencies struct {
	closers []io.Closer
}

// MakeDependency makes one dependency of a server with build: a
// generated Main calls it once per parameter of the server's New. An
// error is build's, after what (the dependency's type, say
// "*store.Store"). A result that implements [io.Closer] is closed by
// deps' Close.
func MakeDependency[T any](ctx context.Context, deps *Dependencies, what string, build func(context.Context) (T, error)) (T, error) {
	v, err := build(ctx)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("%s: %w", what, err)
	}
	if c, ok := any(v).(io.Closer); ok {
		deps.closers = append(deps.closers, c)
	}
	return v, nil
}

// Close closes the dependencies made that implement [io.Closer], last
// made first, and returns their errors joined. Closing again closes
// nothing.
func (d *Dependencies) Close() error {
	var errs []error
	for i := len(d.closers) - 1; i >= 0; i-- {
		errs = append(errs, d.closers[i].Close())
	}
	d.closers = nil
	return errors.Join(errs...)
}
