// kubectl-yaml reads files the way kubectl apply -f does (apimachinery's YAMLOrJSONDecoder over
// sigs.k8s.io/yaml, empty and null documents skipped) and prints, per file, one JSON line:
// {"file":…,"documents":[…]} or {"file":…,"error":…}. The suite holds route-gate's readers against it.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

type result struct {
	File      string            `json:"file"`
	Documents []json.RawMessage `json:"documents"`
	Error     string            `json:"error,omitempty"`
}

func read(path string) result {
	out := result{File: path, Documents: []json.RawMessage{}}
	f, err := os.Open(path)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	defer f.Close()
	decoder := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
	for {
		var raw json.RawMessage
		err := decoder.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			out.Error = err.Error()
			return out
		}
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		out.Documents = append(out.Documents, raw)
	}
}

func main() {
	// file names on stdin, one a line, so a corpus of thousands costs one process
	lines := bufio.NewScanner(os.Stdin)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	encoder := json.NewEncoder(os.Stdout)
	for lines.Scan() {
		if err := encoder.Encode(read(lines.Text())); err != nil {
			os.Exit(1)
		}
	}
}
