//go:build !noudf && !quickjs

package transform

import (
	"slices"
	"strconv"
	"sync"

	"github.com/dop251/goja"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

// The page validates on every keystroke, and a keystroke elsewhere in the
// configuration leaves the UDFs' code as it was: compiling it again (parse,
// instrument, goja's compiler, a runtime made and the top-level code run)
// would give the same findings. The cache keeps, per UDF, what compiling
// gave: the compiled program, which goja lets runtimes share, and the
// findings. A hit makes no runtime: the runtime is made when the first
// message runs (validate runs none), with the top-level code run again
// there, which gives the same result as it did (see cacheable).

// cached is what compiling one UDF gave.
type cached struct {
	key  string
	prog *goja.Program
	code *instrumented
	// diags are the compile findings; none when the UDF is ready to run.
	diags []diag.Diagnostic
	// steps are the steps its top-level code took.
	steps int
}

// cache is a small LRU of compiled UDFs, bounded by entries and by the
// bytes of code they hold.
var cache struct {
	sync.Mutex
	entries []*cached // least recently used first
	bytes   int
	hits    int // for tests
	off     bool
}

// cacheKey is every input compiling depends on: the code, the function's
// name, and the clock the top-level code reads.
func cacheKey(u UDF, opts Options) string {
	return strconv.Itoa(len(u.FunctionName)) + ":" + u.FunctionName + ":" + strconv.FormatInt(opts.Now.UnixNano(), 10) + ":" + u.Code
}

func cacheGet(key string) *cached {
	cache.Lock()
	defer cache.Unlock()
	if cache.off {
		return nil
	}
	for i, e := range cache.entries {
		if e.key == key {
			cache.entries = append(slices.Delete(cache.entries, i, i+1), e)
			cache.hits++
			return e
		}
	}
	return nil
}

func cachePut(e *cached) {
	if len(e.key) > limits.UDFCacheBytes {
		return
	}
	cache.Lock()
	defer cache.Unlock()
	if cache.off {
		return
	}
	for _, o := range cache.entries {
		if o.key == e.key {
			return
		}
	}
	cache.entries = append(cache.entries, e)
	cache.bytes += len(e.key)
	for len(cache.entries) > limits.UDFCacheEntries || cache.bytes > limits.UDFCacheBytes {
		cache.bytes -= len(cache.entries[0].key)
		cache.entries = slices.Delete(cache.entries, 0, 1)
	}
}
