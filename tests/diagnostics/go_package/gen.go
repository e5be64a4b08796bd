//go:build ignore

package main

this file is left out by its build constraint
