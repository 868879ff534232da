/*
 * Relays a TCP connection pair with splice(2) through a pipe, so the bytes go socket -> pipe ->
 * socket inside the kernel and are never copied into the process. A direction holds a pipe only
 * while bytes are in it: pipes come from one pool per process and go back as soon as they are
 * empty, so thousands of open tunnels share the few pipes that the busy ones need (the kernel
 * gives an unprivileged user 64 MiB of pipe buffers in all, fs.pipe-user-pages-soft, and past
 * that only 8 KiB pipes). Readiness comes from the libuv loop Node already runs (uv_poll on
 * duplicates of the two sockets' file descriptors): no thread, no busy loop. Node keeps its own
 * handles on the sockets, idle, for their lifetime; this side only ever closes its duplicates.
 *
 * start(clientFd, targetFd, toTarget, toClient, counts, onEvent) -> relay
 *   toTarget / toClient: bytes Node already read from the other side, written first.
 *   counts: a Float64Array(4) this side keeps current: [0] bytes read from the target,
 *   [1] bytes written to the target, [2] bytes read from the client, [3] bytes written to the
 *   client.
 *   onEvent(kind, side, code): kind 0 = bytes moved (at most one pipe's worth each way since the
 *   last event), 1 = one direction finished (side: 0 client->target, 1 target->client; its
 *   destination was shut down for writing), 2 = both directions finished, 3 = an error on one
 *   socket (side: 0 client, 1 target; code: the errno name). After 2 or 3 the relay has closed
 *   its descriptors and sends nothing more.
 * stop(relay): closes the relay's descriptors at once; no event follows.
 * stats() -> { relays, pipesInUse, pipesPooled }: running relays, pipes holding bytes now, empty
 *   pipes kept for reuse (none once no relay runs).
 * probe() -> null, or why splice(2) does not work on TCP sockets here (a sandbox or an emulated
 *   kernel may refuse it): one byte through a loopback connection and a pipe, both ways.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <uv.h>

enum { CLIENT = 0, TARGET = 1 };
/* A pooled pipe's size; also the most read from a socket before JS sees the counts. */
#define PIPE_BYTES (256 * 1024)
/* Empty pipes kept for the next direction that needs one (closed when no relay is left). */
#define POOL_MAX 16
#define PIPES_PER_EVENT 8
enum { EVENT_PROGRESS = 0, EVENT_HALF = 1, EVENT_DONE = 2, EVENT_ERROR = 3 };
enum { READ_TARGET = 0, WRITTEN_TARGET = 1, READ_CLIENT = 2, WRITTEN_CLIENT = 3 };

typedef struct relay relay_t;

/* One direction: bytes flow from socket `from` through the pipe to socket `to`. */
typedef struct {
  int from, to;
  /* Borrowed from the pool while bytes are in it; -1 when none is held. */
  int pipe_fds[2];
  size_t in_pipe;
  size_t pipe_size;
  /* Bytes given by JS to write before anything spliced. */
  char *prefix;
  size_t prefix_len, prefix_off;
  int eof;  /* `from` reached end of stream */
  int done; /* eof, pipe empty and `to` shut down for writing */
} direction_t;

struct relay {
  napi_env env;
  napi_ref on_event;
  napi_ref counts_ref;
  napi_async_context async_context;
  double *counts;
  int fds[2];
  uv_poll_t polls[2];
  /* The events each poll waits for now (restarting a poll costs an epoll_ctl). */
  int armed[2];
  int open_handles;
  direction_t dirs[2]; /* [0] client -> target, [1] target -> client */
  int stopped;
  int released;
  int moved;
};

/* The pool, shared by every relay of the process (worker threads too, hence the lock). */
typedef struct {
  int fds[2];
  size_t size;
} pooled_pipe_t;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pooled_pipe_t pool[POOL_MAX];
static int pool_free;
static int pipes_in_use;
static int relays_running;

static void close_pipe(int fds[2]) {
  close(fds[0]);
  close(fds[1]);
}

/* Gives the direction an empty pipe (from the pool, or a new one); -1 with errno on failure. */
static int borrow_pipe(direction_t *d) {
  if (d->pipe_fds[0] >= 0) return 0;
  pthread_mutex_lock(&pool_lock);
  if (pool_free > 0) {
    pooled_pipe_t *p = &pool[--pool_free];
    d->pipe_fds[0] = p->fds[0];
    d->pipe_fds[1] = p->fds[1];
    d->pipe_size = p->size;
    pipes_in_use++;
    pthread_mutex_unlock(&pool_lock);
    return 0;
  }
  pthread_mutex_unlock(&pool_lock);
  if (pipe2(d->pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    d->pipe_fds[0] = d->pipe_fds[1] = -1;
    return -1;
  }
  /* Past the user's pipe-buffer allowance the kernel refuses this and the pipe stays small:
   * slower, never wrong. */
  fcntl(d->pipe_fds[0], F_SETPIPE_SZ, PIPE_BYTES);
  int size = fcntl(d->pipe_fds[0], F_GETPIPE_SZ);
  d->pipe_size = size > 0 ? (size_t)size : 4096;
  pthread_mutex_lock(&pool_lock);
  pipes_in_use++;
  pthread_mutex_unlock(&pool_lock);
  return 0;
}

/* Returns the direction's pipe once it is empty. One that still holds bytes (the relay ended
 * mid-way) is closed, as is one smaller than asked for (made while over the allowance: a later
 * one may be full size) or one the full pool has no room for. */
static void return_pipe(direction_t *d) {
  if (d->pipe_fds[0] < 0 || d->in_pipe > 0) {
    if (d->pipe_fds[0] >= 0 && d->in_pipe > 0) {
      close_pipe(d->pipe_fds);
      d->pipe_fds[0] = d->pipe_fds[1] = -1;
      d->in_pipe = 0;
      pthread_mutex_lock(&pool_lock);
      pipes_in_use--;
      pthread_mutex_unlock(&pool_lock);
    }
    return;
  }
  pthread_mutex_lock(&pool_lock);
  pipes_in_use--;
  if (pool_free < POOL_MAX && d->pipe_size >= PIPE_BYTES && relays_running > 0) {
    pool[pool_free].fds[0] = d->pipe_fds[0];
    pool[pool_free].fds[1] = d->pipe_fds[1];
    pool[pool_free].size = d->pipe_size;
    pool_free++;
  } else {
    close_pipe(d->pipe_fds);
  }
  pthread_mutex_unlock(&pool_lock);
  d->pipe_fds[0] = d->pipe_fds[1] = -1;
}

/* One relay fewer; the last one out empties the pool, so an idle process holds no pipe. */
static void relay_ended(void) {
  pthread_mutex_lock(&pool_lock);
  if (--relays_running == 0) {
    while (pool_free > 0) close_pipe(pool[--pool_free].fds);
  }
  pthread_mutex_unlock(&pool_lock);
}

static void free_relay(relay_t *relay) {
  direction_t *d;
  for (int i = 0; i < 2; i++) {
    d = &relay->dirs[i];
    free(d->prefix);
  }
  free(relay);
}

static void on_handle_closed(uv_handle_t *handle) {
  relay_t *relay = handle->data;
  if (--relay->open_handles == 0) free_relay(relay);
}

/* Closes every descriptor and handle; memory goes once libuv has closed both polls. */
static void shut(relay_t *relay) {
  if (relay->stopped) return;
  relay->stopped = 1;
  for (int i = 0; i < 2; i++) {
    uv_close((uv_handle_t *)&relay->polls[i], on_handle_closed);
    close(relay->fds[i]);
    /* A pipe still holding bytes is closed with them; an empty one goes back. */
    return_pipe(&relay->dirs[i]);
  }
  relay_ended();
}

/* Lets go of the JS callback and counts (after the last event, or on stop). */
static void release(relay_t *relay) {
  if (relay->released) return;
  relay->released = 1;
  napi_delete_reference(relay->env, relay->on_event);
  napi_delete_reference(relay->env, relay->counts_ref);
  napi_async_destroy(relay->env, relay->async_context);
}

static void emit(relay_t *relay, int kind, int side, const char *code) {
  if (relay->released) return;
  napi_env env = relay->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value fn, recv, argv[3], result;
  napi_get_reference_value(env, relay->on_event, &fn);
  napi_get_global(env, &recv);
  napi_create_int32(env, kind, &argv[0]);
  napi_create_int32(env, side, &argv[1]);
  if (code)
    napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &argv[2]);
  else
    napi_get_undefined(env, &argv[2]);
  napi_status status = napi_make_callback(env, relay->async_context, recv, fn, 3, argv, &result);
  if (status == napi_pending_exception) {
    napi_value error;
    napi_get_and_clear_last_exception(env, &error);
    napi_fatal_exception(env, error);
  }
  napi_close_handle_scope(env, scope);
}

static const char *errno_code(int error) {
  switch (error) {
    case ECONNRESET: return "ECONNRESET";
    case EPIPE: return "EPIPE";
    case ETIMEDOUT: return "ETIMEDOUT";
    case EHOSTUNREACH: return "EHOSTUNREACH";
    case ENETUNREACH: return "ENETUNREACH";
    case ECONNABORTED: return "ECONNABORTED";
    case ENOMEM: return "ENOMEM";
    default: return "EIO";
  }
}

/* An error on socket `side`: everything closes, then JS hears of it. */
static void fail(relay_t *relay, int side, int error) {
  shut(relay);
  emit(relay, EVENT_ERROR, side, errno_code(error));
  release(relay);
}

/* Writes what the pipe (and the prefix before it) holds to `to`; 0 when it would block or is
 * empty, -1 after failing the relay. */
static int drain(relay_t *relay, int index) {
  direction_t *d = &relay->dirs[index];
  int counter = index == 0 ? WRITTEN_TARGET : WRITTEN_CLIENT;
  int to_side = index == 0 ? TARGET : CLIENT;
  while (d->prefix_off < d->prefix_len) {
    ssize_t n = send(d->to, d->prefix + d->prefix_off, d->prefix_len - d->prefix_off, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
      fail(relay, to_side, errno);
      return -1;
    }
    d->prefix_off += (size_t)n;
    relay->counts[counter] += (double)n;
    relay->moved = 1;
  }
  while (d->in_pipe > 0) {
    ssize_t n = splice(d->pipe_fds[0], NULL, d->to, NULL, d->in_pipe, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
      fail(relay, to_side, errno);
      return -1;
    }
    d->in_pipe -= (size_t)n;
    relay->counts[counter] += (double)n;
    relay->moved = 1;
  }
  return_pipe(d);
  return 0;
}

/* Reads from `from` into a borrowed pipe, at most a pipe's worth; returns how many (0: would
 * block or end of stream, and the pipe went back), -1 after failing the relay. */
static ssize_t fill(relay_t *relay, int index) {
  direction_t *d = &relay->dirs[index];
  int counter = index == 0 ? READ_CLIENT : READ_TARGET;
  int from_side = index == 0 ? CLIENT : TARGET;
  size_t room;
  if (d->eof || d->prefix_off < d->prefix_len) return 0;
  if (borrow_pipe(d) < 0) {
    fail(relay, from_side, errno);
    return -1;
  }
  room = d->pipe_size - d->in_pipe;
  if (room == 0) return 0;
  for (;;) {
    ssize_t n = splice(d->from, NULL, d->pipe_fds[1], NULL, room, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        return_pipe(d);
        return 0;
      }
      fail(relay, from_side, errno);
      return -1;
    }
    if (n == 0) {
      d->eof = 1;
      return_pipe(d);
    }
    d->in_pipe += (size_t)n;
    relay->counts[counter] += (double)n;
    if (n > 0) relay->moved = 1;
    return n;
  }
}

static void on_ready(uv_poll_t *handle, int status, int events);

/* Asks libuv for what each socket is waited on for now. */
static void rearm(relay_t *relay) {
  for (int side = 0; side < 2; side++) {
    direction_t *out = &relay->dirs[side];     /* reads from this socket */
    direction_t *in = &relay->dirs[1 - side];  /* writes to this socket */
    int events = 0;
    /* Reading waits until the pipe is empty: level-triggered readiness on a socket whose bytes
     * cannot move on yet would wake the loop for nothing. */
    if (!out->eof && out->in_pipe == 0 && out->prefix_off >= out->prefix_len) events |= UV_READABLE;
    if (!in->done && (in->in_pipe > 0 || in->prefix_off < in->prefix_len)) events |= UV_WRITABLE;
    if (events == relay->armed[side]) continue;
    relay->armed[side] = events;
    if (events)
      uv_poll_start(&relay->polls[side], events, on_ready);
    else
      uv_poll_stop(&relay->polls[side]);
  }
}

/* Moves what can move now both ways, a pipe's worth at a time, for up to PIPES_PER_EVENT pipes
 * each way (as libuv reads a stream up to 32 times per event). JS sees the counts after every
 * pipe's worth (metering, the balance cut-off: it may stop the relay then), and hears of a
 * finished direction or the end. */
static void pump(relay_t *relay, int readable[2]) {
  int halves[2] = {0, 0};
  for (int round = 0; round < PIPES_PER_EVENT; round++) {
    int again = 0;
    relay->moved = 0;
    for (int index = 0; index < 2; index++) {
      direction_t *d = &relay->dirs[index];
      if (d->done) continue;
      if (drain(relay, index) < 0) return;
      if (readable[index] && d->in_pipe == 0) {
        ssize_t n = fill(relay, index);
        if (n < 0 || drain(relay, index) < 0) return;
        /* Bytes that went straight on: read again (until the socket has nothing, the
         * destination is full, or PIPES_PER_EVENT rounds). */
        if (n > 0 && d->in_pipe == 0)
          again = 1;
        else
          readable[index] = 0;
      }
      if (d->eof && d->in_pipe == 0 && d->prefix_off >= d->prefix_len) {
        shutdown(d->to, SHUT_WR);
        d->done = 1;
        halves[index] = 1;
      }
    }
    if (relay->dirs[0].done && relay->dirs[1].done) {
      shut(relay);
      emit(relay, EVENT_DONE, 0, NULL);
      release(relay);
      return;
    }
    if (relay->moved) emit(relay, EVENT_PROGRESS, 0, NULL);
    if (relay->stopped) return;
    if (!again) break;
  }
  rearm(relay);
  for (int index = 0; index < 2 && !relay->stopped; index++)
    if (halves[index]) emit(relay, EVENT_HALF, index, NULL);
}

static void on_ready(uv_poll_t *handle, int status, int events) {
  relay_t *relay = handle->data;
  if (relay->stopped) return;
  int side = handle == &relay->polls[CLIENT] ? CLIENT : TARGET;
  if (status < 0) {
    int error = 0;
    socklen_t length = sizeof error;
    getsockopt(relay->fds[side], SOL_SOCKET, SO_ERROR, &error, &length);
    fail(relay, side, error ? error : EIO);
    return;
  }
  /* Readable on the client feeds direction 0, on the target direction 1. */
  int readable[2] = {0, 0};
  if (events & UV_READABLE) readable[side] = 1;
  pump(relay, readable);
}

#define CHECK(call)                                                        \
  do {                                                                     \
    if ((call) != napi_ok) {                                               \
      napi_throw_error(env, NULL, "splice: bad arguments to " #call);      \
      return NULL;                                                         \
    }                                                                      \
  } while (0)

static int copy_prefix(napi_env env, napi_value value, direction_t *d) {
  napi_valuetype type;
  if (napi_typeof(env, value, &type) != napi_ok) return -1;
  if (type == napi_null || type == napi_undefined) return 0;
  void *data;
  size_t length;
  if (napi_get_buffer_info(env, value, &data, &length) != napi_ok) return -1;
  if (length == 0) return 0;
  d->prefix = malloc(length);
  if (!d->prefix) return -1;
  memcpy(d->prefix, data, length);
  d->prefix_len = length;
  return 0;
}

/* The JS handle counts as one holder of the memory, each libuv poll as another. */
static void finalize_relay(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  relay_t *relay = data;
  if (--relay->open_handles == 0) free_relay(relay);
}

static napi_value start(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 6) {
    napi_throw_type_error(env, NULL, "splice: start needs 6 arguments");
    return NULL;
  }
  int32_t client_fd, target_fd;
  CHECK(napi_get_value_int32(env, argv[0], &client_fd));
  CHECK(napi_get_value_int32(env, argv[1], &target_fd));
  napi_typedarray_type array_type;
  size_t array_length;
  void *array_data;
  CHECK(napi_get_typedarray_info(env, argv[4], &array_type, &array_length, &array_data, NULL, NULL));
  if (array_type != napi_float64_array || array_length < 4) {
    napi_throw_type_error(env, NULL, "splice: counts must be a Float64Array(4)");
    return NULL;
  }

  relay_t *relay = calloc(1, sizeof *relay);
  if (!relay) {
    napi_throw_error(env, "ENOMEM", "splice: out of memory");
    return NULL;
  }
  relay->env = env;
  relay->counts = array_data;
  relay->fds[0] = relay->fds[1] = -1;
  for (int i = 0; i < 2; i++) relay->dirs[i].pipe_fds[0] = relay->dirs[i].pipe_fds[1] = -1;
  const char *failure = NULL;
  if (copy_prefix(env, argv[2], &relay->dirs[0]) || copy_prefix(env, argv[3], &relay->dirs[1]))
    failure = "splice: toTarget and toClient must be Buffers or null";
  else if ((relay->fds[CLIENT] = fcntl(client_fd, F_DUPFD_CLOEXEC, 0)) < 0 ||
           (relay->fds[TARGET] = fcntl(target_fd, F_DUPFD_CLOEXEC, 0)) < 0)
    failure = "splice: cannot duplicate the sockets' descriptors";
  if (failure) {
    for (int i = 0; i < 2; i++)
      if (relay->fds[i] >= 0) close(relay->fds[i]);
    free_relay(relay);
    napi_throw_error(env, NULL, failure);
    return NULL;
  }
  relay->dirs[0].from = relay->fds[CLIENT];
  relay->dirs[0].to = relay->fds[TARGET];
  relay->dirs[1].from = relay->fds[TARGET];
  relay->dirs[1].to = relay->fds[CLIENT];
  /* Node set both sockets non-blocking; the duplicates share that file status. */
  for (int i = 0; i < 2; i++) {
    int flags = fcntl(relay->fds[i], F_GETFL);
    fcntl(relay->fds[i], F_SETFL, flags | O_NONBLOCK);
  }

  uv_loop_t *loop;
  napi_get_uv_event_loop(env, &loop);
  pthread_mutex_lock(&pool_lock);
  relays_running++;
  pthread_mutex_unlock(&pool_lock);
  relay->open_handles = 1;
  for (int i = 0; i < 2; i++) {
    uv_poll_init(loop, &relay->polls[i], relay->fds[i]);
    relay->polls[i].data = relay;
    relay->open_handles++;
  }
  napi_create_reference(env, argv[5], 1, &relay->on_event);
  napi_create_reference(env, argv[4], 1, &relay->counts_ref);
  napi_value resource, name;
  napi_create_object(env, &resource);
  napi_create_string_utf8(env, "ByteTollSplice", NAPI_AUTO_LENGTH, &name);
  napi_async_init(env, resource, name, &relay->async_context);

  napi_value handle;
  napi_create_external(env, relay, finalize_relay, NULL, &handle);
  /* Prefix bytes go out as soon as the sockets take them; then reading starts. */
  rearm(relay);
  return handle;
}

static napi_value stop(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  void *data;
  CHECK(napi_get_value_external(env, argv[0], &data));
  relay_t *relay = data;
  shut(relay);
  release(relay);
  return NULL;
}

/* Moves one byte a -> b over loopback TCP, then through a pipe from b back to a; NULL when it
 * arrived, else what failed (written to `why`). Blocking calls, bounded by a 1 s timeout. */
static const char *probe_splice(char *why, size_t size) {
  int listener = -1, a = -1, b = -1, fds[2] = {-1, -1};
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t length = sizeof address;
  struct timeval timeout = {.tv_sec = 1};
  char sent = 'b', got = 0;
  const char *step = NULL;
  errno = 0;
  if ((listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
      bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 1) ||
      getsockname(listener, (struct sockaddr *)&address, &length))
    step = "a loopback listener";
  else if ((a = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
           connect(a, (struct sockaddr *)&address, sizeof address))
    step = "a loopback connection";
  else if ((b = accept4(listener, NULL, NULL, SOCK_CLOEXEC)) < 0)
    step = "accepting a loopback connection";
  else if (setsockopt(a, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) ||
           setsockopt(b, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) ||
           pipe2(fds, O_CLOEXEC))
    step = "a pipe";
  else if (send(a, &sent, 1, MSG_NOSIGNAL) != 1)
    step = "sending a byte";
  else if (splice(b, NULL, fds[1], NULL, 1, SPLICE_F_MOVE) != 1)
    step = "splice from a TCP socket";
  else if (splice(fds[0], NULL, b, NULL, 1, SPLICE_F_MOVE) != 1)
    step = "splice to a TCP socket";
  else if (recv(a, &got, 1, 0) != 1 || got != sent)
    step = "receiving the spliced byte";
  int error = errno;
  int opened[5] = {listener, a, b, fds[0], fds[1]};
  for (int i = 0; i < 5; i++)
    if (opened[i] >= 0) close(opened[i]);
  if (!step) return NULL;
  /* A call that moved no byte (or the wrong one) without an error leaves errno at 0. */
  snprintf(why, size, "%s failed: %s", step, error ? strerror(error) : "no byte or the wrong byte");
  return why;
}

static napi_value probe(napi_env env, napi_callback_info info) {
  (void)info;
  char why[160];
  napi_value result;
  const char *failure = probe_splice(why, sizeof why);
  if (failure)
    CHECK(napi_create_string_utf8(env, failure, NAPI_AUTO_LENGTH, &result));
  else
    CHECK(napi_get_null(env, &result));
  return result;
}

/* { relays, pipesInUse, pipesPooled }: what the process holds now. */
static napi_value stats(napi_env env, napi_callback_info info) {
  (void)info;
  pthread_mutex_lock(&pool_lock);
  int figures[3] = {relays_running, pipes_in_use, pool_free};
  pthread_mutex_unlock(&pool_lock);
  const char *names[3] = {"relays", "pipesInUse", "pipesPooled"};
  napi_value result, value;
  CHECK(napi_create_object(env, &result));
  for (int i = 0; i < 3; i++) {
    CHECK(napi_create_int32(env, figures[i], &value));
    CHECK(napi_set_named_property(env, result, names[i], value));
  }
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"start", NULL, start, NULL, NULL, NULL, napi_default, NULL},
      {"stop", NULL, stop, NULL, NULL, NULL, napi_default, NULL},
      {"stats", NULL, stats, NULL, NULL, NULL, napi_default, NULL},
      {"probe", NULL, probe, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, 4, properties);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
