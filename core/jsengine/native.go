//go:build !js

package jsengine

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// Natively the binary runs under wazero's compiler. wazero's host modules
// export only functions, and the binary imports its memory, so the binary
// is loaded with that one import turned into a memory of its own
// (defineMemory): the code is the pinned code, byte for byte.
//
// A script is stopped three ways, in this order of what meets it: the
// engine's own limits (memory, stack), the counted interrupt, and the
// deadline. The deadline is checked at each interrupt and, for work the
// engine does without polling, by wazero itself: a call whose context ends
// is abandoned and the instance closed (WithCloseOnContextDone).

type engine struct {
	runtime wazero.Runtime
	module  wazero.CompiledModule
}

var shared struct {
	once sync.Once
	e    *engine
	err  error
}

// instanceState is what the host functions of one instance read and write.
type instanceState struct {
	budget     Budget
	interrupts int
	started    time.Time
	stop       Stop
	maxPages   uint32
}

type stateKey struct{}

func load() (*engine, error) {
	shared.once.Do(func() {
		if err := CheckBinary(); err != nil {
			shared.err = err
			return
		}
		ctx := context.Background()
		// NewRuntimeConfig is the compiler where wazero has one for this
		// platform, else its interpreter.
		r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(true))
		bin, err := defineMemory(quickjsWasm, 256, maxPages)
		if err != nil {
			shared.err = err
			return
		}
		if _, err := hostModule(r).Instantiate(ctx); err != nil {
			shared.err = fmt.Errorf("jsengine: host functions: %w", err)
			return
		}
		m, err := r.CompileModule(ctx, bin)
		if err != nil {
			shared.err = fmt.Errorf("jsengine: compiling quickjs-ng: %w", err)
			return
		}
		shared.e = &engine{runtime: r, module: m}
	})
	return shared.e, shared.err
}

func stateOf(ctx context.Context) *instanceState {
	s, _ := ctx.Value(stateKey{}).(*instanceState)
	return s
}

func hostModule(r wazero.Runtime) wazero.HostModuleBuilder {
	b := r.NewHostModuleBuilder(ImportModule)
	i32 := api.ValueTypeI32
	i64 := api.ValueTypeI64
	f64 := api.ValueTypeF64
	fn := func(name string, params, results []api.ValueType, f api.GoModuleFunc) {
		b.NewFunctionBuilder().WithGoModuleFunction(f, params, results).Export(name)
	}
	ret := func(v uint64) api.GoModuleFunc {
		return func(_ context.Context, _ api.Module, stack []uint64) {
			if len(stack) > 0 {
				stack[0] = v
			}
		}
	}
	abort := func(ctx context.Context, m api.Module, _ []uint64) {
		if s := stateOf(ctx); s != nil {
			s.stop = StopHost
		}
		panic(errAbort)
	}
	fn("b", []api.ValueType{i32, i32, i32, i32}, nil, abort)
	fn("r", nil, nil, abort)
	fn("s", []api.ValueType{i32}, nil, abort)
	// fd_write: report every byte written, print none.
	fn("c", []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}, func(_ context.Context, m api.Module, stack []uint64) {
		iov, n, out := uint32(stack[1]), uint32(stack[2]), uint32(stack[3])
		var total uint32
		for k := uint32(0); k < n; k++ {
			l, _ := m.Memory().ReadUint32Le(iov + 8*k + 4)
			total += l
		}
		m.Memory().WriteUint32Le(out, total)
		stack[0] = 0
	})
	fn("d", []api.ValueType{i32}, []api.ValueType{i32}, ret(52))
	fn("o", []api.ValueType{i32, i64, i32, i32}, []api.ValueType{i32}, ret(70))
	fn("e", []api.ValueType{i32, i32}, []api.ValueType{i32}, ret(0))
	fn("f", []api.ValueType{i32, i32}, []api.ValueType{i32}, func(_ context.Context, m api.Module, stack []uint64) {
		m.Memory().WriteUint32Le(uint32(stack[0]), 0)
		m.Memory().WriteUint32Le(uint32(stack[1]), 0)
		stack[0] = 0
	})
	fn("g", []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}, ret(0))
	fn("h", []api.ValueType{i32, i32, i32}, []api.ValueType{i32}, ret(0))
	fn("i", []api.ValueType{i32}, []api.ValueType{i32}, func(ctx context.Context, _ api.Module, stack []uint64) {
		stack[0] = 0
		s := stateOf(ctx)
		if s == nil {
			return
		}
		s.interrupts++
		if s.stop = Poll(s.budget, s.interrupts, s.started); s.stop == StopNone {
			return
		}
		stack[0] = 1
	})
	fn("j", []api.ValueType{i32, f64}, []api.ValueType{i32}, ret(0))
	fn("k", []api.ValueType{i32}, []api.ValueType{i32}, func(ctx context.Context, m api.Module, stack []uint64) {
		want := uint64(uint32(stack[0]))
		mem := m.Memory()
		have := uint64(mem.Size())
		stack[0] = 0
		max := uint64(math.MaxUint32)
		if s := stateOf(ctx); s != nil && s.maxPages > 0 {
			max = uint64(s.maxPages) * 65536
		}
		pages, ok := GrowPages(want, have, max)
		if !ok {
			return
		}
		if pages == 0 {
			stack[0] = 1
			return
		}
		if _, ok := mem.Grow(uint32(pages)); ok {
			stack[0] = 1
		}
	})
	fn("l", nil, nil, ret(0))
	fn("m", []api.ValueType{i64, i32}, nil, func(_ context.Context, m api.Module, stack []uint64) {
		writeTM(m.Memory(), int64(stack[0]), uint32(stack[1]))
	})
	fn("n", []api.ValueType{i32, i32, i32, i32}, nil, func(_ context.Context, m api.Module, stack []uint64) {
		mem := m.Memory()
		mem.WriteUint32Le(uint32(stack[0]), 0)
		mem.WriteUint32Le(uint32(stack[1]), 0)
		mem.Write(uint32(stack[2]), []byte("UTC\x00"))
		mem.Write(uint32(stack[3]), []byte("UTC\x00"))
	})
	fn("p", nil, []api.ValueType{f64}, func(ctx context.Context, _ api.Module, stack []uint64) {
		stack[0] = math.Float64bits(float64(nowOf(ctx).UnixMilli()))
	})
	fn("q", []api.ValueType{i32, i64, i32}, []api.ValueType{i32}, func(ctx context.Context, m api.Module, stack []uint64) {
		ptr := uint32(stack[2])
		if uint32(stack[0]) > 3 {
			stack[0] = 28 // EINVAL
			return
		}
		m.Memory().WriteUint64Le(ptr, uint64(nowOf(ctx).UnixNano()))
		stack[0] = 0
	})
	fn("t", []api.ValueType{i32, i32, i32, i32, i32}, []api.ValueType{i32}, ret(0))
	fn("u", []api.ValueType{i32, i32}, nil, ret(0))
	return b
}

func nowOf(ctx context.Context) time.Time {
	if s := stateOf(ctx); s != nil && !s.budget.Now.IsZero() {
		return s.budget.Now
	}
	return time.Unix(0, 0)
}

// writeTM fills a C struct tm for the given Unix time (TM).
func writeTM(mem api.Memory, sec int64, ptr uint32) {
	for k, v := range TM(sec) {
		mem.WriteUint32Le(ptr+uint32(4*k), uint32(v))
	}
}

var errAbort = errors.New("jsengine: the engine aborted")

func init() {
	host = func(l Limits) (Runtime, error) {
		r, err := openWazero(l)
		if err != nil {
			return nil, err
		}
		return r, nil
	}
}

// wazeroRuntime is a Runtime in an instance under wazero.
type wazeroRuntime struct {
	mod    api.Module
	state  *instanceState
	rt, cx uint32
	fns    map[string]api.Function
}

// openWazero starts an instance of the engine with one runtime and context.
func openWazero(l Limits) (*wazeroRuntime, error) {
	e, err := load()
	if err != nil {
		return nil, err
	}
	st := &instanceState{maxPages: InstancePages(l)}
	ctx := context.WithValue(context.Background(), stateKey{}, st)
	mod, err := e.runtime.InstantiateModule(withReservedMemory(ctx), e.module, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, fmt.Errorf("jsengine: starting quickjs-ng: %w", err)
	}
	r := &wazeroRuntime{mod: mod, state: st, fns: map[string]api.Function{}}
	for _, name := range []string{ExportCtors, ExportMalloc, ExportFree, ExportNewRuntime, ExportFreeRuntime, ExportNewContext, ExportFreeContext,
		ExportSetMemoryLimit, ExportSetMaxStack, ExportEnableInterrupt, ExportEval, ExportResolveExc, ExportGetString, ExportDump, ExportFreeCString, ExportFreeValue} {
		f := mod.ExportedFunction(name)
		if f == nil {
			mod.Close(ctx)
			return nil, fmt.Errorf("jsengine: quickjs-ng has no export %q", name)
		}
		r.fns[name] = f
	}
	if _, err := r.call(ctx, ExportCtors); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	rt, err := r.call(ctx, ExportNewRuntime)
	if err != nil {
		mod.Close(ctx)
		return nil, err
	}
	r.rt = uint32(rt)
	if l.MemoryBytes > 0 {
		r.call(ctx, ExportSetMemoryLimit, rt, uint64(l.MemoryBytes))
	}
	if l.StackBytes > 0 {
		r.call(ctx, ExportSetMaxStack, rt, uint64(l.StackBytes))
	}
	r.call(ctx, ExportEnableInterrupt, rt)
	cx, err := r.call(ctx, ExportNewContext, rt, 0)
	if err != nil || cx == 0 {
		mod.Close(ctx)
		return nil, fmt.Errorf("jsengine: no context: %v", err)
	}
	r.cx = uint32(cx)
	return r, nil
}

func (r *wazeroRuntime) call(ctx context.Context, name string, args ...uint64) (uint64, error) {
	res, err := r.fns[name].Call(ctx, args...)
	if err != nil {
		return 0, err
	}
	if len(res) == 0 {
		return 0, nil
	}
	return res[0], nil
}

// Eval runs code as a global script and returns its completion value as a
// string, or what it threw.
func (r *wazeroRuntime) Eval(code, filename string, b Budget) (Result, error) {
	return r.eval(code, filename, 0, b)
}

// Check compiles code as a global script without running it, and returns
// the syntax error, if any.
func (r *wazeroRuntime) Check(code, filename string) (*Exception, error) {
	res, err := r.eval(code, filename, EvalCompileOnly, Budget{Interrupts: 1})
	return res.Exception, err
}

func (r *wazeroRuntime) eval(code, filename string, flags uint64, b Budget) (res Result, err error) {
	if r.mod == nil {
		return Result{}, ErrClosed
	}
	st := r.state
	st.budget, st.interrupts, st.stop, st.started = b, 0, StopNone, time.Now()
	ctx := context.WithValue(context.Background(), stateKey{}, st)
	if b.Deadline > 0 {
		var cancel context.CancelFunc
		// The engine polls the interrupt handler far more often than this
		// margin in every loop; wazero's own check is for code between polls.
		ctx, cancel = context.WithTimeout(ctx, b.Deadline+b.Deadline/4)
		defer cancel()
	}
	defer func() {
		res.Interrupts = st.interrupts
		if err != nil {
			// The instance is gone: wazero closed it (the deadline), the
			// engine aborted, or the host ran out of its own stack.
			r.closeModule()
			if st.stop == StopNone || st.stop == StopDeadline {
				st.stop = StopHost
				if strings.Contains(err.Error(), "stack overflow") {
					st.stop = StopStack
				}
			}
			res = Result{Stop: st.stop, Interrupts: st.interrupts, Exception: &Exception{Name: "InternalError", Message: "the engine was stopped"}}
			err = nil
		}
	}()
	codePtr, err := r.cstring(ctx, code)
	if err != nil {
		return res, err
	}
	defer r.call(ctx, ExportFree, codePtr)
	filePtr, err := r.cstring(ctx, filename)
	if err != nil {
		return res, err
	}
	defer r.call(ctx, ExportFree, filePtr)
	val, err := r.call(ctx, ExportEval, uint64(r.cx), codePtr, uint64(len(code)), filePtr, 0, flags)
	if err != nil {
		return res, err
	}
	if val == 0 {
		return res, errors.New("jsengine: eval gave no value")
	}
	defer r.call(ctx, ExportFreeValue, uint64(r.cx), val)
	exc, err := r.call(ctx, ExportResolveExc, uint64(r.cx), val)
	if err != nil {
		return res, err
	}
	if exc != 0 {
		defer r.call(ctx, ExportFreeValue, uint64(r.cx), exc)
		dump, err := r.takeString(ctx, ExportDump, exc)
		if err != nil {
			return res, err
		}
		return Result{Exception: DecodeException(dump), Stop: st.stop}, nil
	}
	if flags&EvalCompileOnly != 0 {
		return Result{}, nil
	}
	s, err := r.takeString(ctx, ExportGetString, val)
	if err != nil {
		return res, err
	}
	return Result{Value: s}, nil
}

// cstring copies s into the instance's memory, NUL-terminated.
func (r *wazeroRuntime) cstring(ctx context.Context, s string) (uint64, error) {
	p, err := r.call(ctx, ExportMalloc, uint64(len(s)+1))
	if err != nil {
		return 0, err
	}
	if p == 0 {
		return 0, errors.New("jsengine: out of memory for the script")
	}
	mem := r.mod.Memory()
	if !mem.WriteString(uint32(p), s) || !mem.WriteByte(uint32(p)+uint32(len(s)), 0) {
		return 0, errors.New("jsengine: script outside memory")
	}
	return p, nil
}

// takeString calls fn (GetString or Dump) on a value and reads, then frees,
// the C string it returns.
func (r *wazeroRuntime) takeString(ctx context.Context, fn string, val uint64) (string, error) {
	p, err := r.call(ctx, fn, uint64(r.cx), val)
	if err != nil {
		return "", err
	}
	if p == 0 {
		return "", errors.New("jsengine: no string (out of memory)")
	}
	defer r.call(ctx, ExportFreeCString, uint64(r.cx), p)
	mem := r.mod.Memory()
	buf, ok := mem.Read(uint32(p), mem.Size()-uint32(p))
	if !ok {
		return "", errors.New("jsengine: string outside memory")
	}
	for i, c := range buf {
		if c == 0 {
			return string(buf[:i]), nil
		}
	}
	return "", errors.New("jsengine: unterminated string")
}

func (r *wazeroRuntime) closeModule() {
	if r.mod != nil {
		r.mod.Close(context.Background())
		r.mod = nil
	}
}

// Close frees the runtime and its instance.
func (r *wazeroRuntime) Close() {
	r.closeModule()
}

// MemoryBytes is the instance's memory size now (what the engine grew to).
func (r *wazeroRuntime) MemoryBytes() int {
	if r.mod == nil {
		return 0
	}
	return int(r.mod.Memory().Size())
}

// maxPages is the most any instance may grow to (1 GiB); each instance's
// own bound, from its Limits, is kept by the heap-growth import.
const maxPages = 16384

// defineMemory returns bin with its one memory import replaced by a memory
// the module defines, of min to max pages.
func defineMemory(bin []byte, min, max uint32) ([]byte, error) {
	if len(bin) < 8 {
		return nil, errors.New("jsengine: not a wasm binary")
	}
	out := append([]byte{}, bin[:8]...)
	pos := 8
	memDone := false
	rank := func(id byte) int {
		switch id {
		case 12:
			return 95 // data count sits between element (9) and code (10)
		case 0:
			return -1
		}
		return int(id) * 10
	}
	memSection := func() []byte {
		body := []byte{1, 1}
		body = binary.AppendUvarint(body, uint64(min))
		body = binary.AppendUvarint(body, uint64(max))
		return section(5, body)
	}
	for pos < len(bin) {
		id := bin[pos]
		size, n := binary.Uvarint(bin[pos+1:])
		if n <= 0 || pos+1+n+int(size) > len(bin) {
			return nil, errors.New("jsengine: malformed wasm section")
		}
		body := bin[pos+1+n : pos+1+n+int(size)]
		next := pos + 1 + n + int(size)
		if !memDone && rank(id) > 50 {
			out = append(out, memSection()...)
			memDone = true
		}
		if id == 2 {
			nb, err := dropMemoryImport(body)
			if err != nil {
				return nil, err
			}
			out = append(out, section(2, nb)...)
		} else {
			out = append(out, bin[pos:next]...)
		}
		pos = next
	}
	if !memDone {
		out = append(out, memSection()...)
	}
	return out, nil
}

func section(id byte, body []byte) []byte {
	s := []byte{id}
	s = binary.AppendUvarint(s, uint64(len(body)))
	return append(s, body...)
}

func dropMemoryImport(body []byte) ([]byte, error) {
	count, n := binary.Uvarint(body)
	if n <= 0 {
		return nil, errors.New("jsengine: malformed import section")
	}
	p := n
	var kept [][]byte
	dropped := 0
	readName := func() error {
		l, k := binary.Uvarint(body[p:])
		if k <= 0 || p+k+int(l) > len(body) {
			return errors.New("jsengine: malformed import name")
		}
		p += k + int(l)
		return nil
	}
	uleb := func() error {
		_, k := binary.Uvarint(body[p:])
		if k <= 0 {
			return errors.New("jsengine: malformed import")
		}
		p += k
		return nil
	}
	limits := func() error {
		flag := body[p]
		p++
		if err := uleb(); err != nil {
			return err
		}
		if flag&1 == 1 {
			return uleb()
		}
		return nil
	}
	for i := uint64(0); i < count; i++ {
		start := p
		if err := readName(); err != nil {
			return nil, err
		}
		if err := readName(); err != nil {
			return nil, err
		}
		kind := body[p]
		p++
		var err error
		switch kind {
		case 0:
			err = uleb()
		case 1:
			p++
			err = limits()
		case 2:
			err = limits()
		case 3:
			p += 2
		default:
			err = errors.New("jsengine: unknown import kind")
		}
		if err != nil {
			return nil, err
		}
		if kind == 2 {
			dropped++
			continue
		}
		kept = append(kept, body[start:p])
	}
	if dropped != 1 {
		return nil, fmt.Errorf("jsengine: expected one memory import, found %d", dropped)
	}
	out := binary.AppendUvarint(nil, uint64(len(kept)))
	for _, k := range kept {
		out = append(out, k...)
	}
	return out, nil
}
