// Runs the Go champion under the protocol of protocol.md: keeps the referee's pipes on
// private descriptors, points fd 1 (and os.Stdout) at stderr and fd 0 at /dev/null, then
// calls the champion's callbacks InitGame, Jouer, Enchere, Placement, EndGame.

package main

import (
	"bufio"
	"fmt"
	"os"
	"syscall"
)

func kitTakeProtocol() {
	in, err1 := syscall.Dup(0)
	out, err2 := syscall.Dup(1)
	null, err3 := syscall.Open("/dev/null", syscall.O_RDONLY, 0)
	if err1 != nil || err2 != nil || err3 != nil {
		fmt.Fprintln(os.Stderr, "prologin kit (Go): cannot set up the protocol descriptors")
		os.Exit(2)
	}
	syscall.Dup3(null, 0, 0)
	syscall.Close(null)
	syscall.Dup3(2, 1, 0)
	syscall.CloseOnExec(in)
	syscall.CloseOnExec(out)
	protoIn = bufio.NewReaderSize(os.NewFile(uintptr(in), "referee-in"), 65536)
	protoOut = bufio.NewWriter(os.NewFile(uintptr(out), "referee-out"))
}

func main() {
	kitTakeProtocol()
	callbacks := map[string]func(){
		"init_game": InitGame,
		"jouer":     Jouer,
		"enchere":   Enchere,
		"placement": Placement,
		"end_game":  EndGame,
	}
	ended := false
	for {
		line, ok := kitReadLine()
		if !ok {
			break
		}
		name := string(line)
		f, known := callbacks[name]
		if !known {
			kitFail("unknown callback `%.60s` from the referee", name)
		}
		callback = name
		ended = name == "end_game"
		dirty = true
		f()
		os.Stdout.Sync()
		kitSend("fin\n")
	}
	if !ended {
		fmt.Fprintln(os.Stderr, "prologin kit (Go): the referee closed the connection before end_game")
		os.Exit(1)
	}
}
