/*
 * The gateway's front door without a Node socket: a listening TCP socket watched in the relays'
 * epoll set, whose connections are accepted here and handed to JavaScript as a descriptor, the
 * peer's address and the bytes that had already arrived. A short tunnel that is admitted and
 * spliced then never has a Node socket on either side; JavaScript makes one from the descriptor
 * (`new net.Socket({ fd })`) for everything else.
 *
 * listen(host, port, backlog, onAccepted) -> listener, or the errno name (EADDRINUSE…):
 *   host is an IPv4 or IPv6 address; SO_REUSEADDR and TCP_NODELAY are set on the listening
 *   socket (Linux copies TCP_NODELAY to each accepted socket). onAccepted(fd, address, port,
 *   head): a new connection, non-blocking, whose descriptor JavaScript owns from then on, with
 *   what it had sent (head: a Buffer of up to HEAD_BYTES, or null when nothing had arrived yet).
 *   A connection that ended or failed before sending a byte is closed here and not reported.
 *   onAccepted(-1, code): accepting failed for want of descriptors or memory (EMFILE…); the
 *   listener stopped watching until resumeListener().
 * listen(fd, 0, backlog, onAccepted): the same on a listening socket this process inherited
 *   (from listenSocket in its parent), which other processes accept from too: each is woken and
 *   whoever accepts first serves the connection (the others' accept4 finds none), as with Node's
 *   shared cluster socket. The descriptor is the listener's from then on.
 * listenSocket(host, port, backlog) -> the descriptor of a listening socket that child processes
 *   inherit (no close-on-exec) and this process does not watch, or the errno name: a parent's
 *   socket its workers accept from (listen(fd, …) in each).
 * listenerPort(listener) -> the port it listens on.
 * resumeListener(listener): watches again after an onAccepted(-1, code).
 * closeListener(listener): stops listening and closes the socket; no callback follows.
 * setReadHandler(onRead): the function every readSome reports to (one per event loop).
 * readSome(fd): waits until the socket is readable, reads up to HEAD_BYTES and calls
 *   onRead(fd, bytes, code): bytes a Buffer (empty at end of stream), or null with the errno
 *   name. The descriptor stays the caller's. No JS object is made for the wait.
 * cancelRead(fd): stops waiting; no callback follows. Harmless after the callback.
 * writeSome(fd, bytes) -> how many bytes went, or the errno name: one non-blocking send, for the
 *   few bytes a handshake answers before its tunnel (SOCKS5's method choice and status).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include "shared.h"

/* What a connection's first read takes: a CONNECT head is a few hundred bytes. */
#define HEAD_BYTES 8192
/* Connections accepted per wake-up before other events get their turn (libuv's own loop takes
 * every pending one). */
#define ACCEPTS_PER_EVENT 64

struct listener {
  freeable_t freeable;
  napi_env env;
  napi_ref on_accepted;
  napi_async_context async_context;
  watcher_t *watcher;
  int fd;
  int open;
  int armed;
  int finalized;
  int freed;
  watch_t watch;
};

/* A wait for an accepted socket's first bytes. No JS object stands for it: it is found by its
 * descriptor (cancelRead), and reported through the watcher's one read handler. */
struct reader {
  freeable_t freeable;
  watcher_t *watcher;
  int fd;
  watch_t watch;
};

/* Each struct is freed once, when it is neither in use nor referenced from JavaScript (a
 * finalizer may run while its last callback does). */
static void free_listener(listener_t *listener) {
  if (listener->open || !listener->finalized || listener->freed) return;
  listener->freed = 1;
  defer_free(listener->watcher, &listener->freeable);
}

static void arm_listener(listener_t *listener, int on) {
  if (listener->armed == on) return;
  listener->armed = on;
  struct epoll_event e = {.events = EPOLLIN, .data.ptr = &listener->watch};
  epoll_ctl(listener->watcher->epfd, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, listener->fd, &e);
}

/* The peer's address as Node writes it (an IPv4-mapped one included) and its port. */
static void peer_of(const struct sockaddr_storage *peer, char *text, size_t size, int *port) {
  text[0] = 0;
  *port = 0;
  if (peer->ss_family == AF_INET6) {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)peer;
    inet_ntop(AF_INET6, &v6->sin6_addr, text, (socklen_t)size);
    *port = ntohs(v6->sin6_port);
  } else if (peer->ss_family == AF_INET) {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *)peer;
    inet_ntop(AF_INET, &v4->sin_addr, text, (socklen_t)size);
    *port = ntohs(v4->sin_port);
  }
}

static void report_accepted(listener_t *listener, int fd, const char *address, int port, const char *head,
                            ssize_t length) {
  napi_env env = listener->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value argv[4];
  napi_create_int32(env, fd, &argv[0]);
  napi_create_string_utf8(env, address, NAPI_AUTO_LENGTH, &argv[1]);
  napi_create_int32(env, port, &argv[2]);
  if (head && length > 0)
    napi_create_buffer_copy(env, (size_t)length, head, NULL, &argv[3]);
  else
    napi_get_null(env, &argv[3]);
  call_back(env, listener->async_context, listener->on_accepted, 4, argv);
  napi_close_handle_scope(env, scope);
}

/* The listening socket is readable: connections are waiting. Each is accepted with its peer's
 * address (no getpeername later) and read once at once: a client usually sends its request in
 * the packet right behind the handshake, so most arrive with their head. */
void on_acceptable(listener_t *listener) {
  char head[HEAD_BYTES];
  for (int i = 0; i < ACCEPTS_PER_EVENT && listener->open; i++) {
    struct sockaddr_storage peer;
    socklen_t length = sizeof peer;
    int fd = accept4(listener->fd, (struct sockaddr *)&peer, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        /* Level-triggered readiness would wake the loop for nothing until a descriptor frees up:
         * JavaScript waits a little and resumes. */
        arm_listener(listener, 0);
        report_accepted(listener, -1, errno_code(errno), 0, NULL, 0);
      }
      return;
    }
    forget_descriptor(listener->watcher, fd);
    ssize_t n;
    do n = recv(fd, head, sizeof head, 0);
    while (n < 0 && errno == EINTR);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
      close(fd);
      continue;
    }
    char address[INET6_ADDRSTRLEN];
    int port;
    peer_of(&peer, address, sizeof address, &port);
    report_accepted(listener, fd, address, port, head, n);
  }
}

static void release_listener(listener_t *listener) {
  if (!listener->open) return;
  listener->open = 0;
  arm_listener(listener, 0);
  close(listener->fd);
  count_active(listener->watcher, -1);
  napi_delete_reference(listener->env, listener->on_accepted);
  napi_async_destroy(listener->env, listener->async_context);
}

static void finalize_listener(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  listener_t *listener = data;
  listener->finalized = 1;
  free_listener(listener);
}

/* A listening TCP socket on host:port (SO_REUSEADDR and TCP_NODELAY set), close-on-exec unless
 * it is to be inherited; -1 after throwing on bad arguments, else *failed holds 0 or the errno
 * (the socket closed). */
static int listening_socket(napi_env env, napi_value *argv, int inherited, int *failed) {
  int32_t backlog;
  struct sockaddr_storage storage;
  socklen_t storage_length;
  if (napi_get_value_int32(env, argv[2], &backlog) != napi_ok) {
    napi_throw_type_error(env, NULL, "splice: a backlog is a number");
    return -1;
  }
  if (!socket_address(env, argv[0], argv[1], 0, "listen", &storage, &storage_length)) return -1;
  int fd = tcp_socket(&storage);
  *failed = fd < 0 ? errno : 0;
  if (!*failed) {
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (bind(fd, (struct sockaddr *)&storage, storage_length) != 0 || listen(fd, backlog > 0 ? backlog : 511) != 0)
      *failed = errno;
    else if (inherited)
      fcntl(fd, F_SETFD, 0);
  }
  if (*failed && fd >= 0) close(fd);
  return *failed ? -2 : fd;
}

napi_value listen_socket(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  if (!arguments_of(env, info, 3, argv, "splice: listenSocket needs 3 arguments")) return NULL;
  int failed = 0;
  int fd = listening_socket(env, argv, 1, &failed);
  if (fd == -1) return NULL;
  napi_value result;
  if (failed) return failure_of(env, -1, failed);
  CHECK(napi_create_int32(env, fd, &result));
  return result;
}

napi_value listen_on(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  if (!arguments_of(env, info, 4, argv, "splice: listen needs 4 arguments")) return NULL;
  watcher_t *watcher = watcher_or_throw(env);
  if (!watcher) return NULL;
  napi_valuetype first;
  CHECK(napi_typeof(env, argv[0], &first));
  int fd, failed = 0, shared = first == napi_number;
  if (shared) {
    /* A listening socket this process inherited (listenSocket in its parent): its own again. */
    CHECK(napi_get_value_int32(env, argv[0], &fd));
    int type = 0;
    socklen_t type_length = sizeof type;
    if (fd < 0) return failure_of(env, -1, EBADF);
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &type_length) != 0) return failure_of(env, -1, errno);
    if (type != SOCK_STREAM) return failure_of(env, -1, ENOTSOCK);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  } else {
    fd = listening_socket(env, argv, 0, &failed);
    if (fd == -1) return NULL;
  }
  listener_t *listener = failed ? NULL : calloc(1, sizeof *listener);
  if (!failed && !listener) failed = ENOMEM;
  if (failed) return failure_of(env, fd, failed);
  listener->env = env;
  listener->watcher = watcher;
  listener->fd = fd;
  listener->open = 1;
  listener->watch = (watch_t){NULL, -1, NULL, listener, NULL};
  arm_listener(listener, 1);
  /* A listening socket keeps the loop alive, as a Node server does. */
  count_active(watcher, 1);
  napi_value result;
  napi_create_reference(env, argv[3], 1, &listener->on_accepted);
  async_context_named(env, "ByteTollAccept", &listener->async_context);
  CHECK(napi_create_external(env, listener, finalize_listener, NULL, &result));
  return result;
}

napi_value listener_port(napi_env env, napi_callback_info info) {
  listener_t *listener = external_argument(env, info);
  if (!listener) return NULL;
  struct sockaddr_storage storage;
  socklen_t length = sizeof storage;
  int port = 0;
  char ignored[INET6_ADDRSTRLEN];
  if (listener->open && getsockname(listener->fd, (struct sockaddr *)&storage, &length) == 0)
    peer_of(&storage, ignored, sizeof ignored, &port);
  napi_value result;
  CHECK(napi_create_int32(env, port, &result));
  return result;
}

napi_value resume_listener(napi_env env, napi_callback_info info) {
  listener_t *listener = external_argument(env, info);
  if (listener && listener->open) arm_listener(listener, 1);
  return NULL;
}

napi_value close_listener(napi_env env, napi_callback_info info) {
  listener_t *listener = external_argument(env, info);
  if (!listener) return NULL;
  release_listener(listener);
  free_listener(listener);
  return NULL;
}

/* The read is over: cancelled (out of the set), or done (`fired`: its one-shot registration
 * stays in the set, parked, for whatever waits on the descriptor next); out of the table. */
static void end_read(reader_t *reader, int fired) {
  watcher_t *watcher = reader->watcher;
  if (fired)
    park_descriptor(watcher, reader->fd, PARKED);
  else
    epoll_ctl(watcher->epfd, EPOLL_CTL_DEL, reader->fd, NULL);
  watcher->readers[reader->fd] = NULL;
  count_active(watcher, -1);
  defer_free(watcher, &reader->freeable);
}

void on_readable(reader_t *reader) {
  watcher_t *watcher = reader->watcher;
  if (watcher->readers[reader->fd] != reader) return;
  char bytes[HEAD_BYTES];
  ssize_t n;
  do n = recv(reader->fd, bytes, sizeof bytes, 0);
  while (n < 0 && errno == EINTR);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
    /* Woken for nothing: the one-shot registration is armed again. */
    struct epoll_event e = {.events = EPOLLIN | EPOLLONESHOT, .data.ptr = &reader->watch};
    epoll_ctl(watcher->epfd, EPOLL_CTL_MOD, reader->fd, &e);
    return;
  }
  int error = n < 0 ? errno : 0;
  int fd = reader->fd;
  /* Done before the call: the handler may start a relay on the descriptor. */
  end_read(reader, 1);
  napi_env env = watcher->poll_env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value argv[3];
  napi_create_int32(env, fd, &argv[0]);
  if (error) {
    napi_get_null(env, &argv[1]);
    napi_create_string_utf8(env, errno_code(error), NAPI_AUTO_LENGTH, &argv[2]);
  } else {
    napi_create_buffer_copy(env, (size_t)n, bytes, NULL, &argv[1]);
    napi_get_undefined(env, &argv[2]);
  }
  call_back(env, watcher->read_context, watcher->on_read, 3, argv);
  napi_close_handle_scope(env, scope);
}

/* Makes room in the table for descriptor `fd`; 0 on failure. */
static int readers_hold(watcher_t *watcher, int fd) {
  return table_hold((void **)&watcher->readers, &watcher->readers_size, sizeof *watcher->readers, fd);
}

napi_value set_read_handler(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (!arguments_of(env, info, 1, argv, "splice: setReadHandler needs a function")) return NULL;
  watcher_t *watcher = watcher_or_throw(env);
  if (!watcher) return NULL;
  if (watcher->on_read) napi_delete_reference(env, watcher->on_read);
  else async_context_named(env, "ByteTollRead", &watcher->read_context);
  napi_create_reference(env, argv[0], 1, &watcher->on_read);
  watcher->poll_env = env;
  return NULL;
}

/* The descriptor argument of readSome and cancelRead, and the watcher; NULL after throwing. */
static watcher_t *descriptor_argument(napi_env env, napi_callback_info info, int32_t *fd) {
  napi_value argv[1];
  if (!arguments_of(env, info, 1, argv, "splice: readSome and cancelRead need a descriptor")) return NULL;
  if (napi_get_value_int32(env, argv[0], fd) != napi_ok) {
    napi_throw_type_error(env, NULL, "splice: a descriptor is a number");
    return NULL;
  }
  return watcher_or_throw(env);
}

napi_value read_some(napi_env env, napi_callback_info info) {
  int32_t fd;
  watcher_t *watcher = descriptor_argument(env, info, &fd);
  if (!watcher) return NULL;
  if (!watcher->on_read) {
    napi_throw_error(env, NULL, "splice: readSome before setReadHandler");
    return NULL;
  }
  if (fd < 0 || !readers_hold(watcher, fd) || watcher->readers[fd]) {
    napi_throw_error(env, NULL, "splice: cannot wait for a read on this descriptor");
    return NULL;
  }
  reader_t *reader = zeroed(env, sizeof *reader);
  if (!reader) return NULL;
  reader->watcher = watcher;
  reader->fd = fd;
  reader->watch = (watch_t){NULL, -1, NULL, NULL, reader};
  /* One shot: once it fired, the descriptor stays in the set with no events (parked). */
  if (arm_descriptor(watcher, fd, EPOLLIN | EPOLLONESHOT, &reader->watch) != 0) {
    int error = errno;
    free(reader);
    napi_throw_error(env, errno_code(error), "splice: cannot watch the descriptor");
    return NULL;
  }
  watcher->readers[fd] = reader;
  count_active(watcher, 1);
  return NULL;
}

napi_value cancel_read(napi_env env, napi_callback_info info) {
  int32_t fd;
  watcher_t *watcher = descriptor_argument(env, info, &fd);
  if (watcher && fd >= 0 && fd < watcher->readers_size && watcher->readers[fd]) end_read(watcher->readers[fd], 0);
  return NULL;
}

/* writeSome(fd, bytes): sends the bytes on a socket that nothing else writes (a SOCKS5 answer
 * before the tunnel); returns how many went (all of a small answer on a fresh socket), or the
 * errno name (EPIPE, ECONNRESET…). Never blocks, never raises SIGPIPE. */
napi_value write_some(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (!arguments_of(env, info, 2, argv, "splice: writeSome needs a descriptor and bytes")) return NULL;
  int32_t fd;
  void *data;
  size_t length;
  if (napi_get_value_int32(env, argv[0], &fd) != napi_ok ||
      napi_get_buffer_info(env, argv[1], &data, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "splice: writeSome needs a descriptor and a Buffer");
    return NULL;
  }
  ssize_t n;
  do n = send(fd, data, length, MSG_NOSIGNAL | MSG_DONTWAIT);
  while (n < 0 && errno == EINTR);
  napi_value result;
  if (n < 0) CHECK(napi_create_string_utf8(env, errno_code(errno), NAPI_AUTO_LENGTH, &result));
  else CHECK(napi_create_int32(env, (int32_t)n, &result));
  return result;
}
