#!/bin/sh
# Lints the files given as arguments.
gofmt -l "$@"
