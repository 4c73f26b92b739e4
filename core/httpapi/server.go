package httpapi

import (
	"context"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/subplay/subplay/core/limits"
)

// ListenAndServe serves h on addr (port 0 picks a free one) until ctx is
// done, then shuts down gracefully. ready is told the address actually
// listened on, once the listener is open.
//
// The server bounds what a client can hold: the time to send headers and
// a whole request, the time to the end of the answer, idle connections and
// header size (core/limits/server.go). It is meant to be the process's one
// server, so it also sets the process's soft memory limit and the
// collector's target (limits.HTTPMemoryLimitMB, HTTPGCPercent), unless
// GOMEMLIMIT or GOGC already do, and on Linux the priority its costly
// operations run at (limits.HTTPCostlyNice, unless SUBPLAY_COSTLY_NICE
// says otherwise).
func ListenAndServe(ctx context.Context, addr string, h http.Handler, ready func(addr string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limits.HTTPMemoryLimitMB << 20)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(limits.HTTPGCPercent)
	}
	nice := limits.HTTPCostlyNice
	if v, err := strconv.Atoi(os.Getenv("SUBPLAY_COSTLY_NICE")); err == nil {
		nice = v
	}
	costlyNice.Store(int32(min(max(nice, 0), 19))) // Linux's priorities go from -20 to 19
	srv := newServer(h)
	if ready != nil {
		ready(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shut)
}

func newServer(h http.Handler) *http.Server {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ms(limits.HTTPReadHeaderMillis),
		ReadTimeout:       ms(limits.HTTPReadMillis),
		WriteTimeout:      ms(limits.HTTPWriteMillis),
		IdleTimeout:       ms(limits.HTTPIdleMillis),
		MaxHeaderBytes:    limits.HTTPMaxHeaderBytes,
	}
}
