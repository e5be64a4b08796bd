// float_edges.go: the table of float_edges.h (go run float_edges.go; GO111MODULE=off).
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

func main() {
	var vs []float64
	digits := "123456789012345"
	exps := []int{-8, -7, -6, -5, -1, 0, 1, 2, 7, 8, 9, 15, 16, 20, 21, 22}
	for n := 1; n <= 15; n++ {
		for _, e := range exps {
			s := digits[:n] + "e" + strconv.Itoa(e-n+1)
			v, _ := strconv.ParseFloat(s, 64)
			vs = append(vs, v)
		}
	}
	// 16 and 17 digits: the neighbours of short values
	for _, e := range exps {
		b, _ := strconv.ParseFloat("1.5e"+strconv.Itoa(e), 64)
		vs = append(vs, math.Nextafter(b, math.Inf(1)), math.Nextafter(b, 0))
		c, _ := strconv.ParseFloat("7.25e"+strconv.Itoa(e), 64)
		vs = append(vs, math.Nextafter(math.Nextafter(c, 0), 0))
	}
	for e := -12; e <= 25; e++ {
		p := math.Pow10(e)
		vs = append(vs, p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)))
	}
	vs = append(vs, 0, math.Copysign(0, -1), 5e-324, 1e-323, 2.5e-323, 2.225073858507201e-308,
		2.2250738585072014e-308, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
		0.30000000000000004, 1.5, 100, 123000, 0.25, 1234.5, 9007199254740993, 9007199254740992,
		-65.61361699999998, 43.46869200000001, -1e-7, -123.456, 0.1, 1.0000000000000002, 1e23, 5e-7, 8.41e21)
	for _, v := range vs {
		j, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		fmt.Printf("    {0x%016XULL, \"%s\"},\n", math.Float64bits(v), j)
	}
}
