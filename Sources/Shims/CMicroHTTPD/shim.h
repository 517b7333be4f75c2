// libmicrohttpd for the sandbox's storage endpoint: unlike libevent 2.1's evhttp,
// which reads a whole request body before its callback runs, it hands a body over
// as it arrives, parses multipart/form-data as a stream and sends files from a
// descriptor. Swift cannot call C variadic functions, so the one variadic call the
// sandbox needs (MHD_start_daemon) is wrapped here with fixed arguments.
//
// libc headers first, as in CEvent, so that this module's fd_set is the one every
// other module sees.
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <stdarg.h>
#include <stdint.h>
#include <unistd.h>
#include <microhttpd.h>

/// MHD_start_daemon on an already listening socket: its own polling thread,
/// a callback when each request ends and one when each connection starts and
/// ends (to cap those waiting for a request), an idle timeout and a per-connection
/// memory limit (which bounds its read buffer). poll(), not the epoll that
/// "auto" picks: with 0.9.75's edge-triggered epoll, a client that hung up in
/// the middle of an upload was now and then not noticed (its socket sat in
/// CLOSE-WAIT until the idle timeout, and so did the partial file).
static inline struct MHD_Daemon *sandbox_mhd_start(int listen_fd, MHD_AccessHandlerCallback handler,
                                                   void *handler_cls, MHD_RequestCompletedCallback completed,
                                                   void *completed_cls, MHD_NotifyConnectionCallback notify,
                                                   void *notify_cls, unsigned int timeout_seconds,
                                                   size_t memory_limit) {
    return MHD_start_daemon(MHD_USE_POLL_INTERNAL_THREAD, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket) listen_fd,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_END);
}

/// The same with TLS (`chatctl-sandbox --https`), by libmicrohttpd's own GnuTLS: `key_pem`
/// and `cert_pem` (the certificate, then its chain) must outlive the daemon.
static inline struct MHD_Daemon *sandbox_mhd_start_tls(int listen_fd, MHD_AccessHandlerCallback handler,
                                                       void *handler_cls, MHD_RequestCompletedCallback completed,
                                                       void *completed_cls, MHD_NotifyConnectionCallback notify,
                                                       void *notify_cls, unsigned int timeout_seconds,
                                                       size_t memory_limit, const char *key_pem, const char *cert_pem) {
    return MHD_start_daemon(MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_TLS, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket) listen_fd,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_HTTPS_MEM_KEY, key_pem,
                            MHD_OPTION_HTTPS_MEM_CERT, cert_pem,
                            MHD_OPTION_END);
}

/// The socket of `connection` (MHD_get_connection_info is variadic); -1 when it has none.
static inline int sandbox_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int) info->connect_fd;
}
