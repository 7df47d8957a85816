package platform

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gocompute/opencl/cl"
)

// Elementwise is a kernel made from one OpenCL C statement evaluated for
// every index i below n, in the spirit of PyOpenCL's and CuPy's
// ElementwiseKernel:
//
//	saxpy, err := rt.Elementwise("float a, __global const float* x, __global float* y",
//		"y[i] = a * x[i] + y[i]")
//	ev, err := saxpy.Run(n, float32(2), x, y)
//
// Its program comes from the runtime's cache, so building the same
// Elementwise again (in this process or, through the disk cache, the next)
// costs no compilation. It is safe for concurrent use.
type Elementwise struct {
	rt     *Runtime
	params []param

	mu sync.Mutex // Run sets arguments and enqueues as one step
	k  *cl.Kernel
}

// param is a kernel parameter as written: its OpenCL type and name, and
// whether it is a pointer.
type param struct {
	decl, typ, name string
	pointer         bool
}

// Elementwise builds the kernel
//
//	__kernel void elementwise(const long n, <params>) {
//		const long i = get_global_id(0);
//		if (i < n) { <body>; }
//	}
//
// params is a C parameter list ("float a, __global float* y"); body is one
// or more statements using i. A compile error is a *cl.BuildError with
// the generated source's log.
func (r *Runtime) Elementwise(params, body string) (*Elementwise, error) {
	ps, err := parseParams(params)
	if err != nil {
		return nil, err
	}
	src := "__kernel void elementwise(const long n"
	if strings.TrimSpace(params) != "" {
		src += ", " + params
	}
	src += ")\n{\n\tconst long i = get_global_id(0);\n\tif (i < n) {\n\t\t" + body + ";\n\t}\n}\n"
	k, err := r.Kernel([]string{src}, "", "elementwise")
	if err != nil {
		return nil, fmt.Errorf("platform: Elementwise: %w", err)
	}
	return &Elementwise{rt: r, params: ps, k: k}, nil
}

// Run enqueues the kernel over i = 0 … n−1 on the runtime's queue (after
// the commands before it, as the queue is in order) with args, which must
// match the parameters in number and type: a float32 for float, an int32
// for int, an *cl.Array[float32] or *cl.Buffer for a float pointer, and
// so on.
func (e *Elementwise) Run(n int, args ...any) (*cl.Event, error) {
	if n <= 0 {
		return nil, fmt.Errorf("platform: Elementwise.Run: n = %d must be positive", n)
	}
	if len(args) != len(e.params) {
		return nil, fmt.Errorf("platform: Elementwise.Run: %d arguments for %d parameters (%s)", len(args), len(e.params), e.paramList())
	}
	for i, a := range args {
		if err := e.params[i].accepts(a); err != nil {
			return nil, fmt.Errorf("platform: Elementwise.Run: argument %d (%s): %w", i, e.params[i].decl, err)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.rt.Queue().Launch(e.k, []int{n}, nil, append([]any{int64(n)}, args...)...)
}

// Release releases the kernel. It is safe to call more than once.
func (e *Elementwise) Release() error { return e.k.Release() }

func (e *Elementwise) paramList() string {
	ds := make([]string, len(e.params))
	for i, p := range e.params {
		ds[i] = p.decl
	}
	return strings.Join(ds, ", ")
}

// parseParams splits a C parameter list into typed parameters.
func parseParams(list string) ([]param, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	var ps []param
	for _, d := range strings.Split(list, ",") {
		d = strings.TrimSpace(d)
		p := param{decl: d, pointer: strings.Contains(d, "*")}
		words := strings.Fields(strings.NewReplacer("*", " ").Replace(d))
		if len(words) < 2 {
			return nil, fmt.Errorf("platform: Elementwise: parameter %q needs a type and a name", d)
		}
		p.name = words[len(words)-1]
		// The type is what is left of the words before the name once
		// the qualifiers are gone.
		var typ []string
		for _, w := range words[:len(words)-1] {
			switch w {
			case "const", "__global", "global", "__constant", "constant", "restrict", "__restrict", "volatile":
			default:
				typ = append(typ, w)
			}
		}
		p.typ = strings.Join(typ, " ")
		if t, ok := cSpelling[p.typ]; ok {
			p.typ = t
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// cSpelling maps C's spellings of the unsigned types to OpenCL's.
var cSpelling = map[string]string{
	"unsigned": "uint", "unsigned int": "uint", "unsigned char": "uchar",
	"unsigned short": "ushort", "unsigned long": "ulong", "signed char": "char",
}

// goScalar maps OpenCL scalar types to the Go type SetArgs wants.
var goScalar = map[string]string{
	"char": "int8", "uchar": "uint8", "short": "int16", "ushort": "uint16",
	"int": "int32", "uint": "uint32", "long": "int64", "ulong": "uint64",
	"float": "float32", "double": "float64",
}

// accepts checks a Go argument against the parameter. Types it does not
// know (structs, vectors, typedefs) are left to the driver.
func (p param) accepts(a any) error {
	want, known := goScalar[p.typ]
	if p.pointer {
		var elem string
		switch v := a.(type) {
		case *cl.Buffer:
			return nil // untyped: the bytes are the kernel's business
		case *cl.Array[int8]:
			elem = "int8"
		case *cl.Array[uint8]:
			elem = "uint8"
		case *cl.Array[int16]:
			elem = "int16"
		case *cl.Array[uint16]:
			elem = "uint16"
		case *cl.Array[int32]:
			elem = "int32"
		case *cl.Array[uint32]:
			elem = "uint32"
		case *cl.Array[int64]:
			elem = "int64"
		case *cl.Array[uint64]:
			elem = "uint64"
		case *cl.Array[float32]:
			elem = "float32"
		case *cl.Array[float64]:
			elem = "float64"
		default:
			return fmt.Errorf("a pointer parameter takes a *cl.Array or *cl.Buffer, not %T", v)
		}
		if known && elem != want {
			return fmt.Errorf("a %s pointer takes a *cl.Array[%s], not a *cl.Array[%s]", p.typ, want, elem)
		}
		return nil
	}
	if got := fmt.Sprintf("%T", a); known && got != want {
		return fmt.Errorf("a %s parameter takes a Go %s, not %s", p.typ, want, got)
	}
	return nil
}
