// libFuzzer's driver entry (compiler-rt, LLVM 11+), linked by -sanitize=fuzzer. It
// exists because SwiftPM links an executable's main.swift as `main`, so libFuzzer's
// own main is never used: the target's main calls this driver instead.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
