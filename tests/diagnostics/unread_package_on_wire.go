package api

import (
	"github.com/google/uuid"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type Pod struct {
	metav1.TypeMeta
	ID    uuid.UUID     `json:"id"`
	Owner *metav1.Owner `json:"owner,omitempty"`
}
