// Why this shim exists: the version, commit and Swift version a release carries come
// from git and the toolchain at build time, which Swift code cannot take as values. The
// Makefile writes them into a header this target's one C file includes (scripts/build-stamp.sh);
// a plain `swift build` has none and reports the defaults. A new stamp rebuilds that file,
// the two modules that read it and the links; -D flags instead would rebuild every module.
#ifndef BUILD_INFO_H
#define BUILD_INFO_H

/// "0.1.0" from a tag, "0.1.0~5.g1a2b3c4" before the first, "0.1.0-dev" without make.
const char *chatctl_build_version(void);
/// The commit built ("1a2b3c4d5e6f", "+dirty" when the tree had changes), or "unknown".
const char *chatctl_build_commit(void);
/// The toolchain's Swift version ("6.3.1"), or "" when not stamped.
const char *chatctl_build_swift(void);
#endif
