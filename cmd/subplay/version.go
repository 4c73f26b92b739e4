package main

import "github.com/subplay/subplay/core/playground"

func version() string { return playground.Version }
