// libmagic (Debian libmagic-dev): an attachment's type is judged from its bytes, not its name.
#include <magic.h>
