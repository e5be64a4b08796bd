package p

type Page[T any, 
