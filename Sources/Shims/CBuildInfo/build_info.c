#include "build_info.h"
// Written by `make release` (scripts/build-stamp.sh) and found through its -I; absent otherwise.
#if __has_include(<chatctl_build_stamp.h>)
#include <chatctl_build_stamp.h>
#endif
#ifndef CHATCTL_VERSION
#define CHATCTL_VERSION "0.1.0-dev"
#endif
#ifndef CHATCTL_COMMIT
#define CHATCTL_COMMIT "unknown"
#endif
#ifndef CHATCTL_SWIFT_VERSION
#define CHATCTL_SWIFT_VERSION ""
#endif

const char *chatctl_build_version(void) { return CHATCTL_VERSION; }
const char *chatctl_build_commit(void) { return CHATCTL_COMMIT; }
const char *chatctl_build_swift(void) { return CHATCTL_SWIFT_VERSION; }
