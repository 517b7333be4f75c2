// The sandbox's load driver for `make bench` (not installed): the raw router rate and
// 1,000 users at once against a running chatctl-sandbox, one JSON object on stdout.
// See scripts/bench-router.sh and scripts/bench-scale.sh, which start the sandbox.
import CommandLineKit
import LoadDriver
#if canImport(Glibc)
import Glibc
#endif

exit(BenchLoad.main(arguments: Array(CommandLine.arguments.dropFirst())))
