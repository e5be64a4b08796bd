package shop

type User struct {
	Name string
}

func (u *User) Close() error {
	if u != nil {
		return nil
}
