package shop

this file is a test: go build leaves it out, and so does tagc
