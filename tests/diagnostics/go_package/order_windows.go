package shop

type Order struct{ Other bool }
