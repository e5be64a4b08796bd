// numbers_ref prints reference vectors for tests/runtime/test_numbers.c:
// how Go 1.19's encoding/json writes float64 and float32 values.
//
//	go run numbers_ref.go [N]     (N random values of each width, default 100000)
//
// Each line is "d HEX16 TEXT" (float64 bits) or "f HEX8 TEXT" (float32 bits),
// TEXT being json.Marshal's output. The set is deterministic (fixed seed).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"strconv"
)

var w = bufio.NewWriterSize(os.Stdout, 1<<20)

func d64(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return
	}
	b, err := json.Marshal(f)
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(w, "d %016x %s\n", math.Float64bits(f), b)
}

func f32(f float32) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return
	}
	b, err := json.Marshal(f)
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(w, "f %08x %s\n", math.Float32bits(f), b)
}

func both(x float64) {
	d64(x)
	d64(-x)
	f32(float32(x))
	f32(-float32(x))
}

func main() {
	defer w.Flush()
	n := 100000
	if len(os.Args) > 1 {
		v, err := strconv.Atoi(os.Args[1])
		if err != nil {
			panic(err)
		}
		n = v
	}

	// Hand-picked edges.
	for _, x := range []float64{
		0, 5e-324, 1e-323, 1.5e-323, 2.2250738585072009e-308, 2.2250738585072014e-308,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 1e21, 1e-7, 1e-6, 0.1 + 0.2,
		123456789012345680, 1e20, 1e22, 1e23, 9.999999999999999e20, 999999999999999900000,
		0.000001, 0.0000009999999999999999, 1, 0.1, 0.5, 2, 3.14159, 100, 1e100,
		9007199254740992, 9007199254740993, 9007199254740991, 4503599627370496,
		4503599627370497, 18446744073709551615, 1.7976931348623157e308,
		1.401298464324817e-45, 1.1754943508222875e-38, 3.4028234663852886e38,
		16777216, 16777217, 8388608, 8388607.5, 1e-45, 1e-44, 1e-38, 1e38, 3e38,
		0.3, 2.5, 1.5, 0.015625, 123.456, 5e-7, 2e-7, 1.2e-6, 299792458, 6.02214076e23,
	} {
		both(x)
	}
	// Powers of 10 and 2, and their neighbours.
	for e := -325; e <= 309; e++ {
		x, _ := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
		both(x)
		both(math.Nextafter(x, 0))
		both(math.Nextafter(x, math.Inf(1)))
		f := float32(x)
		f32(math.Nextafter32(f, 0))
		f32(math.Nextafter32(f, float32(math.Inf(1))))
	}
	for e := -1074; e <= 1023; e++ {
		x := math.Ldexp(1, e)
		both(x)
		both(math.Nextafter(x, 0))
		both(math.Nextafter(x, math.Inf(1)))
		f := float32(x)
		f32(math.Nextafter32(f, 0))
		f32(math.Nextafter32(f, float32(math.Inf(1))))
	}
	// The smallest subnormals and the largest finite values of both widths.
	for i := uint64(1); i <= 2000; i++ {
		d64(math.Float64frombits(i))
		f32(math.Float32frombits(uint32(i)))
		d64(math.Float64frombits(0x7FEFFFFFFFFFFFFF - i + 1))
		f32(math.Float32frombits(uint32(0x7F7FFFFF - i + 1)))
		d64(math.Float64frombits(0x0010000000000000 - i))
		f32(math.Float32frombits(uint32(0x00800000 - i)))
	}
	// Integers of both widths and their exact limits.
	for i := 0; i < 2000; i++ {
		both(float64(i))
		both(float64(16777216 - i))
		both(float64(9007199254740992 - i))
	}

	r := rand.New(rand.NewSource(20240611))
	// Random bit patterns.
	for i := 0; i < n; i++ {
		d64(math.Float64frombits(r.Uint64()))
		f32(math.Float32frombits(r.Uint32()))
	}
	// Random short decimals (as people write them): few digits, any exponent.
	for i := 0; i < n; i++ {
		digits := r.Int63n(int64(1) << uint(r.Intn(62)+1))
		e := r.Intn(60) - 30
		if r.Intn(8) == 0 {
			e = r.Intn(700) - 350
		}
		x, _ := strconv.ParseFloat(strconv.FormatInt(digits, 10)+"e"+strconv.Itoa(e), 64)
		d64(x)
		y, _ := strconv.ParseFloat(strconv.FormatInt(digits, 10)+"e"+strconv.Itoa(e/8), 32)
		f32(float32(y))
	}
}
