// interop.go - tinylib/msgp's side of the msgpack_go test (see run.py):
//   interop encode TYPE IN.json OUT.mp   encoding/json in, msgp MarshalMsg out
//   interop decode TYPE IN.mp OUT.json   msgp UnmarshalMsg in, encoding/json out
// TYPE is tagc's C type name (order_order, user_user). The packages msgpgo/*
// are made by prepare.go and msgp's generator; build in GOPATH mode.
// +build ignore

package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/tinylib/msgp/msgp"

	"msgpgo/order"
	"msgpgo/user"
)

type value interface {
	msgp.Marshaler
	msgp.Unmarshaler
}

func newValue(t string) value {
	switch t {
	case "order_order":
		return &order.Order{}
	case "user_user":
		return &user.User{}
	}
	return nil
}

func run() error {
	if len(os.Args) != 5 {
		return fmt.Errorf("usage: interop encode|decode TYPE IN OUT")
	}
	v := newValue(os.Args[2])
	if v == nil {
		return fmt.Errorf("unknown type %s", os.Args[2])
	}
	in, err := os.ReadFile(os.Args[3])
	if err != nil {
		return err
	}
	var out []byte
	switch os.Args[1] {
	case "encode":
		if err = json.Unmarshal(in, v); err != nil {
			return err
		}
		out, err = v.MarshalMsg(nil)
	case "decode":
		var rest []byte
		if rest, err = v.UnmarshalMsg(in); err != nil {
			return err
		}
		if len(rest) != 0 {
			return fmt.Errorf("%d bytes left after the value", len(rest))
		}
		out, err = json.Marshal(v)
	default:
		return fmt.Errorf("unknown command %s", os.Args[1])
	}
	if err != nil {
		return err
	}
	return os.WriteFile(os.Args[4], out, 0o644)
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "interop:", err)
		os.Exit(1)
	}
}
