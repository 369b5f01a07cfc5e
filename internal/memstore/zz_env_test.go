package memstore

import (
	"os"
	"strconv"
)

func init() {
	if v := os.Getenv("MEMSTORE_MMAP"); v != "" {
		mmapSize, _ = strconv.Atoi(v)
	}
}
