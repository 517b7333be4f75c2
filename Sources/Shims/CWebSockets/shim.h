// libwebsockets for the sandbox's XMPP-over-WebSocket listener (RFC 7395): Debian's
// well-kept WebSocket layer, so no framing is written by hand. LWS_PRE is a
// function-like macro, which Swift cannot import; the constant below carries it.
#include <libwebsockets.h>
static const size_t lws_pre_padding = LWS_PRE;
