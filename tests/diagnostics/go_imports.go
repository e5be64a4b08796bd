// Imports as Go has them: aliases, blank and dot imports, packages tagc does
// not read. A type of an unread package is fine off the wire.
package api

import (
	"encoding/json"
	_ "embed"
	"fmt"
	"net/http"
	. "strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	yaml "gopkg.in/yaml.v3"
)

type Object struct {
	Name     string          `json:"name"`
	Raw      json.RawMessage `json:"raw,omitempty"`
	At       time.Time       `json:"at"`
	client   *http.Client
	Response *http.Response `json:"-"`
	Meta     metav1.Status  `json:"-"`
	node     yaml.Node
}

func (o *Object) String() string { return fmt.Sprint(ToUpper(o.Name)) }
