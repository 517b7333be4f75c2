#include <strophe.h>
