package httpapi_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"testing"
	"time"
)

// postOverLimit POSTs a body the server may refuse before reading it, the
// way a careful client does: it asks first with Expect: 100-continue, and
// it reads the response while it writes, so an early final answer (a 413
// sent while the body is still on its way) is the result, whatever then
// happens to the rest of the write. net/http's Transport can report such a
// refusal as a broken pipe instead, which made the suite flaky against
// workerd.
//
// The body goes out after a 100 Continue, or after a second without any
// answer (a server need not send 100, and then the client may go ahead).
func (tg *target) postOverLimit(t *testing.T, path string, body []byte, chunked bool) reply {
	t.Helper()
	u, err := url.Parse(tg.base)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(2 * time.Minute))

	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nConnection: close\r\n", path, u.Host)
	if chunked {
		head += "Transfer-Encoding: chunked\r\n\r\n"
	} else {
		head += fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body))
	}
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatalf("POST %s: writing the headers: %v", path, err)
	}

	type answer struct {
		r   reply
		err error
	}
	answers := make(chan answer, 2)
	go func() {
		br := bufio.NewReader(conn)
		for {
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				answers <- answer{err: err}
				return
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			answers <- answer{reply{resp.StatusCode, resp.Header, b}, err}
			if resp.StatusCode != http.StatusContinue {
				return
			}
		}
	}()

	write := func() error {
		if !chunked {
			_, err := conn.Write(body)
			return err
		}
		cw := httputil.NewChunkedWriter(conn)
		if _, err := cw.Write(body); err != nil {
			return err
		}
		if err := cw.Close(); err != nil {
			return err
		}
		_, err := io.WriteString(conn, "\r\n")
		return err
	}
	var writeErr error
	select {
	case a := <-answers:
		if a.err != nil {
			t.Fatalf("POST %s: reading the response: %v", path, a.err)
		}
		if a.r.status != http.StatusContinue {
			return a.r // refused before the body was sent
		}
		writeErr = write()
	case <-time.After(time.Second):
		writeErr = write()
	}
	for a := range answers {
		if a.err != nil {
			t.Fatalf("POST %s: reading the response: %v (writing the body: %v)", path, a.err, writeErr)
		}
		if a.r.status != http.StatusContinue {
			return a.r
		}
	}
	panic("unreachable")
}
