/*
 * Relays a TCP connection pair with splice(2) through a pipe, so the bytes go socket -> pipe ->
 * socket inside the kernel and are never copied into the process. A direction holds a pipe only
 * while bytes are in it: pipes come from one pool per process and go back as soon as they are
 * empty, so thousands of open tunnels share the few pipes that the busy ones need (the kernel
 * gives an unprivileged user 64 MiB of pipe buffers in all, fs.pipe-user-pages-soft, and past
 * that only 8 KiB pipes). Readiness comes from an epoll set of the addon's own (one per event
 * loop), which the libuv loop Node already runs watches as one descriptor: no thread, no busy
 * loop, and a socket costs one epoll_ctl to add and one to remove (a uv_poll per socket cost
 * six, an ioctl and, on a duplicated descriptor, three fcntl and a close) — fewer on a short
 * tunnel: a connect and a first read wait with one-shot registrations that stay in the set once
 * they fired (parked), so the relay re-arms them with one EPOLL_CTL_MOD, and the sockets
 * JavaScript closes in the handler of a relay's end leave the set with their close (strace: 6.1
 * epoll_ctl per short tunnel before, 4.2 after). The sockets' own
 * descriptors are watched: Node keeps its handles on them, idle (it stopped reading), for their
 * lifetime, and closes them; this side never does.
 *
 * start(clientFd, targetFd, toTarget, toClient, counts, onEvent) -> relay
 *   toTarget / toClient: bytes Node already read from the other side, written first.
 *   counts: a Float64Array(4) this side keeps current: [0] bytes read from the target,
 *   [1] bytes written to the target, [2] bytes read from the client, [3] bytes written to the
 *   client.
 *   onEvent(kind, side, code): kind 0 = bytes moved: once 64 KiB went unreported (plus at most
 *   one pipe's worth each way), or at the first move a second after the last report; 2, 3 and
 *   stop() leave the rest for the caller to read off the counts, so a short tunnel has no kind 0
 *   at all. 1 = one direction finished (side: 0 client->target, 1 target->client; its
 *   destination was shut down for writing), 2 = both directions finished, 3 = an error on one
 *   socket (side: 0 client, 1 target; code: the errno name). After 2 or 3 the relay no longer
 *   watches the sockets and sends nothing more; the caller closes them.
 * start(..., onEvent, limits): limits, a Float64Array(2), caps what the relay reads from the
 *   client ([0]) and from the target ([1]); negative: no cap. A direction that read its cap and
 *   wrote it all is finished without a shutdown (its destination stays open, no event 1), so one
 *   HTTP message can be relayed and the connections used again: a cap of 0 only writes the
 *   direction's prefix. Event 2 follows once both directions finished, never from start().
 * stop(relay): stops watching the sockets at once; no event follows.
 * connect(address, port, onConnected) -> dial, or an errno name when the connect failed at once:
 *   a non-blocking TCP connection to an IP address (TCP_NODELAY set), watched in the same epoll
 *   set. onConnected(code, fd): code undefined and the connected descriptor, which the caller
 *   owns from then on (start() relays it; closeDescriptor() closes it), or the errno name and
 *   -1 (the descriptor is closed). A tunnel dialled this way never has a Node socket on its
 *   target side: no handle, no stream, no read buffer.
 * cancel(dial): gives up a connect still in progress (its descriptor is closed); no callback
 *   follows. Harmless after the callback.
 * closeDescriptor(fd): closes a descriptor connect() handed over.
 * The relay and the dial that start() and connect() return are numbers naming a slot of a table
 *   in the event loop's watcher and its use: no JS object, weak reference or finalizer per
 *   tunnel; one that ended (or a number from anywhere else) names nothing, so stop() and cancel()
 *   on it do nothing.
 * stats() -> { relays, pipesInUse, pipesPooled, sets }: running relays, pipes holding bytes now,
 *   empty pipes kept for reuse (none once no relay runs), epoll sets open (one per event loop
 *   that has run a relay, kept for the next).
 * probe() -> null, or why splice(2) does not work on TCP sockets here (a sandbox or an emulated
 *   kernel may refuse it): one byte through a loopback connection and a pipe, both ways.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>
#include "shared.h"

enum { CLIENT = 0, TARGET = 1 };
/* A pooled pipe's size; also the most read from a socket before JS sees the counts. */
#define PIPE_BYTES (256 * 1024)
/* Empty pipes kept for the next direction that needs one (closed when no relay is left). */
#define POOL_MAX 16
#define PIPES_PER_EVENT 8
/* Bytes moved are reported to JS (EVENT_PROGRESS) once this many went unreported, or at the
 * first move a second or more after the last report; the end, an error and stop() report the
 * rest. A short tunnel (a request and a page) then costs no progress call at all: JS reads the
 * counts once, at its end. */
#define REPORT_BYTES (64 * 1024)
#define REPORT_MS 1000
enum { EVENT_PROGRESS = 0, EVENT_HALF = 1, EVENT_DONE = 2, EVENT_ERROR = 3 };
enum { READ_TARGET = 0, WRITTEN_TARGET = 1, READ_CLIENT = 2, WRITTEN_CLIENT = 3 };

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
  /* The errno of a prefix write tried at start, left for the relay's first write to report. */
  int early_error;
  int eof;  /* `from` reached end of stream */
  /* The last read took less than it had room for: the socket had nothing more then, so it is
   * read again once epoll says so, not at once (which would mostly find EAGAIN). */
  int drained;
  int done; /* eof, pipe empty and `to` shut down for writing; or its read limit reached and
              * everything read written (`to` left open) */
  /* The most this relay reads from `from` (negative: no limit), and how much it read so far. */
  double limit;
  double taken;
} direction_t;

struct relay {
  napi_env env;
  napi_ref on_event;
  napi_ref counts_ref;
  double *counts;
  watcher_t *watcher;
  int fds[2];
  watch_t watches[2];
  /* The epoll events each socket is registered for now (0: not in the set). */
  int armed[2];
  direction_t dirs[2]; /* [0] client -> target, [1] target -> client */
  int stopped;
  int released;
  int moved;
  /* Bytes (all four counts) when JS last heard of them, and when (CLOCK_MONOTONIC_COARSE ms). */
  double reported;
  long long reported_at;
  double id;
  relay_t *next_free;
};

/* A connect in progress (until its callback) and its JS callback. */
struct dial {
  napi_env env;
  napi_ref on_connected;
  watcher_t *watcher;
  int fd;
  int pending;
  int finalized;
  double id;
  watch_t watch;
  dial_t *next_free;
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
/* Epoll sets open (one per event loop that ran a relay). */
static int epoll_sets;

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

/* Handles: slot + generation * HANDLE_SLOTS, exact in a double for 2^29 uses of a slot. */
#define HANDLE_SLOTS (1 << 24)

/* What a handle names: a relay or a connect, told apart by its generation's lowest bit, so the
 * one passed where the other is expected names nothing. */
enum { HANDLE_RELAY = 0, HANDLE_DIAL = 1 };

/* A handle for `pointer` (a `kind`); -1 when the table cannot grow. */
static double handle_put(watcher_t *watcher, void *pointer, int kind) {
  if (watcher->free_handle_count == 0) {
    int size = watcher->handles_size ? watcher->handles_size * 2 : 1024;
    if (size > HANDLE_SLOTS) return -1;
    void **slots = realloc(watcher->handles, (size_t)size * sizeof *slots);
    if (slots) watcher->handles = slots;
    uint32_t *generations = realloc(watcher->handle_generations, (size_t)size * sizeof *generations);
    if (generations) watcher->handle_generations = generations;
    int *free_slots = realloc(watcher->free_handles, (size_t)size * sizeof *free_slots);
    if (free_slots) watcher->free_handles = free_slots;
    if (!slots || !generations || !free_slots) return -1;
    for (int i = size - 1; i >= watcher->handles_size; i--) {
      slots[i] = NULL;
      generations[i] = 0;
      free_slots[watcher->free_handle_count++] = i;
    }
    watcher->handles_size = size;
  }
  int slot = watcher->free_handles[--watcher->free_handle_count];
  watcher->handles[slot] = pointer;
  uint32_t generation = (watcher->handle_generations[slot] + 2) & ((1u << 29) - 2);
  generation |= (uint32_t)kind;
  watcher->handle_generations[slot] = generation;
  return (double)slot + (double)generation * HANDLE_SLOTS;
}

/* The slot a handle of `kind` names while it is held; -1 for anything else. */
static int handle_slot(watcher_t *watcher, double id, int kind) {
  if (!(id >= 0) || id > 9007199254740991.0) return -1;
  long long value = (long long)id;
  int slot = (int)(value % HANDLE_SLOTS);
  uint32_t generation = (uint32_t)(value / HANDLE_SLOTS);
  if ((double)value != id || slot >= watcher->handles_size || !watcher->handles[slot]) return -1;
  if (watcher->handle_generations[slot] != generation || (generation & 1u) != (uint32_t)kind) return -1;
  return slot;
}

/* What the handle names if it is a `kind`, or NULL (let go, or never made here). */
static void *handle_get(watcher_t *watcher, double id, int kind) {
  int slot = handle_slot(watcher, id, kind);
  return slot < 0 ? NULL : watcher->handles[slot];
}

/* Lets the handle go: it names nothing from now on. */
static void handle_drop(watcher_t *watcher, double id, int kind) {
  int slot = handle_slot(watcher, id, kind);
  if (slot < 0) return;
  watcher->handles[slot] = NULL;
  watcher->free_handles[watcher->free_handle_count++] = slot;
}

/* Frees a stopped relay whose JS handle is gone, unless events are being dispatched. */
static void free_when_done(relay_t *relay) {
  if (!relay->stopped || !relay->released) return;
  watcher_t *watcher = relay->watcher;
  if (watcher && watcher->dispatching) {
    relay->next_free = watcher->to_free;
    watcher->to_free = relay;
    return;
  }
  free_relay(relay);
}

/* Makes room for `index` in a table by descriptor (`*table` of `*size` entries of `element`
 * bytes, grown by doubling from 1024, new entries zeroed); 0 on failure. */
int table_hold(void **table, int *size, size_t element, int index) {
  if (index < *size) return 1;
  int grown_size = *size ? *size : 1024;
  while (grown_size <= index) grown_size *= 2;
  char *grown = realloc(*table, (size_t)grown_size * element);
  if (!grown) return 0;
  memset(grown + (size_t)*size * element, 0, (size_t)(grown_size - *size) * element);
  *table = grown;
  *size = grown_size;
  return 1;
}

/* Makes room in the parked table for descriptor `fd`; 0 on failure. */
static int parked_hold(watcher_t *watcher, int fd) {
  return table_hold((void **)&watcher->parked, &watcher->parked_size, 1, fd);
}

/* `fd` stays in the set with nobody waiting on it (`how`: PARKED or ENDING). */
void park_descriptor(watcher_t *watcher, int fd, int how) {
  if (fd >= 0 && parked_hold(watcher, fd)) watcher->parked[fd] = (unsigned char)how;
}

/* `fd` is not (or no longer) in the set: closed, removed, or a new socket. */
void forget_descriptor(watcher_t *watcher, int fd) {
  if (fd >= 0 && fd < watcher->parked_size) watcher->parked[fd] = 0;
}

/* Adds `fd` to the set for `events` (a parked one is modified); 0, or -1 with errno. */
int arm_descriptor(watcher_t *watcher, int fd, uint32_t events, void *data) {
  struct epoll_event e = {.events = events, .data.ptr = data};
  int parked = fd >= 0 && fd < watcher->parked_size && watcher->parked[fd];
  int result = epoll_ctl(watcher->epfd, parked ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &e);
  if (result != 0 && errno == (parked ? ENOENT : EEXIST))
    result = epoll_ctl(watcher->epfd, parked ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &e);
  if (result == 0) forget_descriptor(watcher, fd);
  return result;
}

/* Registers socket `side` for `events` in the watcher's set (0: removes it). */
static void watch(relay_t *relay, int side, int events) {
  int was = relay->armed[side];
  if (events == was) return;
  relay->armed[side] = events;
  if (was == 0) {
    arm_descriptor(relay->watcher, relay->fds[side], (uint32_t)events, &relay->watches[side]);
    return;
  }
  struct epoll_event e = {.events = (uint32_t)events, .data.ptr = &relay->watches[side]};
  epoll_ctl(relay->watcher->epfd, events == 0 ? EPOLL_CTL_DEL : EPOLL_CTL_MOD, relay->fds[side], &e);
}

/* Stops the relay and gives the pipes back; the sockets stay Node's to close. `unwatch`: they
 * leave the set now (otherwise the caller takes them out once JavaScript heard of the end). */
static void stop_relay(relay_t *relay, int unwatch) {
  if (relay->stopped) return;
  relay->stopped = 1;
  for (int i = 0; i < 2; i++) {
    if (unwatch) watch(relay, i, 0);
    /* A pipe still holding bytes is closed with them; an empty one goes back. */
    return_pipe(&relay->dirs[i]);
  }
  relay_ended();
  watcher_t *watcher = relay->watcher;
  /* No relay left: the loop need not stay alive for the set. */
  count_active(watcher, -1);
}

/* Stops watching both sockets at once. */
static void shut(relay_t *relay) {
  stop_relay(relay, 1);
}

/* Lets go of the JS callback and counts (after the last event, or on stop), and of its handle:
 * the memory goes once no event of the batch can point at it. */
static void release(relay_t *relay) {
  if (relay->released) return;
  relay->released = 1;
  napi_delete_reference(relay->env, relay->on_event);
  napi_delete_reference(relay->env, relay->counts_ref);
  handle_drop(relay->watcher, relay->id, HANDLE_RELAY);
  free_when_done(relay);
}

/* Inside on_set_ready's dispatch: its callback scope is open, so callbacks are plain calls and
 * the ticks and promise jobs they queue run once, when the batch ends. */
static __thread int in_batch;

/* Calls the JS function `fn`: in a batch of events, as a plain call inside the batch's callback
 * scope; otherwise in `context` (NULL: none). An exception it throws is the process's uncaught
 * exception, as from any other callback. Inside a handle scope. */
void call_back(napi_env env, napi_async_context context, napi_ref fn, size_t argc, napi_value *argv) {
  napi_value function, recv, result;
  napi_get_reference_value(env, fn, &function);
  napi_get_global(env, &recv);
  napi_status status = in_batch ? napi_call_function(env, recv, function, argc, argv, &result)
                                : napi_make_callback(env, context, recv, function, argc, argv, &result);
  if (status == napi_pending_exception) {
    napi_value error;
    napi_get_and_clear_last_exception(env, &error);
    napi_fatal_exception(env, error);
  }
}

/* The async context callbacks of a relay or a connect (`name`) run in. */
void async_context_named(napi_env env, const char *name, napi_async_context *context) {
  napi_value resource, text;
  napi_create_object(env, &resource);
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &text);
  napi_async_init(env, resource, text, context);
}

static void emit(relay_t *relay, int kind, int side, const char *code) {
  if (relay->released) return;
  napi_env env = relay->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value argv[3];
  napi_create_int32(env, kind, &argv[0]);
  napi_create_int32(env, side, &argv[1]);
  if (code)
    napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &argv[2]);
  else
    napi_get_undefined(env, &argv[2]);
  call_back(env, NULL, relay->on_event, 3, argv);
  napi_close_handle_scope(env, scope);
}

const char *errno_code(int error) {
  switch (error) {
    case ECONNRESET: return "ECONNRESET";
    case EPIPE: return "EPIPE";
    case ETIMEDOUT: return "ETIMEDOUT";
    case EHOSTUNREACH: return "EHOSTUNREACH";
    case ENETUNREACH: return "ENETUNREACH";
    case ECONNABORTED: return "ECONNABORTED";
    case ENOMEM: return "ENOMEM";
    case ECONNREFUSED: return "ECONNREFUSED";
    case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
    case ENETDOWN: return "ENETDOWN";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case EMFILE: return "EMFILE";
    case ENFILE: return "ENFILE";
    case EAFNOSUPPORT: return "EAFNOSUPPORT";
    case EADDRINUSE: return "EADDRINUSE";
    case EINVAL: return "EINVAL";
    case ENOBUFS: return "ENOBUFS";
    default: return "EIO";
  }
}

/* The relay ended (EVENT_DONE, or EVENT_ERROR on `side`): it stops, JS hears of it, and the
 * sockets still ENDING then (neither closed in the handler, which took them out of the set, nor
 * re-armed by a new wait) leave the set: the two removals a tunnel's end cost are saved when
 * JavaScript closes both, as it mostly does. */
static void finish(relay_t *relay, int kind, int side, const char *code) {
  if (relay->stopped) return;
  stop_relay(relay, 0);
  watcher_t *watcher = relay->watcher;
  for (int i = 0; i < 2; i++)
    if (relay->armed[i]) park_descriptor(watcher, relay->fds[i], ENDING);
  emit(relay, kind, side, code);
  for (int i = 0; i < 2; i++) {
    int fd = relay->fds[i];
    if (relay->armed[i] && fd < watcher->parked_size && watcher->parked[fd] == ENDING) {
      epoll_ctl(watcher->epfd, EPOLL_CTL_DEL, fd, NULL);
      forget_descriptor(watcher, fd);
    }
    relay->armed[i] = 0;
  }
  release(relay);
}

/* An error on socket `side`: everything closes, then JS hears of it. */
static void fail(relay_t *relay, int side, int error) {
  finish(relay, EVENT_ERROR, side, errno_code(error));
}

/* Writes what the pipe (and the prefix before it) holds to `to`; 0 when it would block or is
 * empty, -1 after failing the relay. */
static int drain(relay_t *relay, int index) {
  direction_t *d = &relay->dirs[index];
  int counter = index == 0 ? WRITTEN_TARGET : WRITTEN_CLIENT;
  int to_side = index == 0 ? TARGET : CLIENT;
  if (d->early_error) {
    fail(relay, to_side, d->early_error);
    return -1;
  }
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

/* The direction read all it may (its limit); it ends once that is written. */
static int limit_reached(const direction_t *d) {
  return d->limit >= 0 && d->taken >= d->limit;
}

/* Reads from `from` into a borrowed pipe, at most a pipe's worth; returns how many (0: would
 * block or end of stream, and the pipe went back), -1 after failing the relay. */
static ssize_t fill(relay_t *relay, int index) {
  direction_t *d = &relay->dirs[index];
  int counter = index == 0 ? READ_CLIENT : READ_TARGET;
  int from_side = index == 0 ? CLIENT : TARGET;
  size_t room;
  if (d->eof || d->prefix_off < d->prefix_len || limit_reached(d)) return 0;
  if (borrow_pipe(d) < 0) {
    fail(relay, from_side, errno);
    return -1;
  }
  room = d->pipe_size - d->in_pipe;
  if (d->limit >= 0 && (double)room > d->limit - d->taken) room = (size_t)(d->limit - d->taken);
  if (room == 0) {
    if (d->in_pipe == 0) return_pipe(d);
    return 0;
  }
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
    d->taken += (double)n;
    d->drained = (size_t)n < room;
    relay->counts[counter] += (double)n;
    if (n > 0) relay->moved = 1;
    return n;
  }
}

/* Writes the prefixes at start, before any socket is in the set: a new connection's send buffer
 * takes the `200 Connection Established` (and what the client sent after its CONNECT) at once,
 * so the socket is added for reading only, with no wait for writability first (one epoll_ctl and
 * one wake-up fewer per tunnel). No event is emitted from inside start(): what would block is
 * left for the relay, and a failed write's errno is reported by its first write (drain). */
static void write_prefixes(relay_t *relay) {
  for (int index = 0; index < 2; index++) {
    direction_t *d = &relay->dirs[index];
    int counter = index == 0 ? WRITTEN_TARGET : WRITTEN_CLIENT;
    while (d->prefix_off < d->prefix_len) {
      ssize_t n = send(d->to, d->prefix + d->prefix_off, d->prefix_len - d->prefix_off, MSG_NOSIGNAL);
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) d->early_error = errno;
        break;
      }
      d->prefix_off += (size_t)n;
      relay->counts[counter] += (double)n;
    }
  }
}

static long long coarse_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
  return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Whether the bytes moved since the last report are to be reported now (REPORT_BYTES). */
static int due_report(relay_t *relay) {
  double *c = relay->counts;
  double total = c[0] + c[1] + c[2] + c[3];
  long long now = coarse_ms();
  if (total - relay->reported < REPORT_BYTES && now - relay->reported_at < REPORT_MS) return 0;
  relay->reported = total;
  relay->reported_at = now;
  return 1;
}

/* Registers each socket for what it is waited on for now. */
static void rearm(relay_t *relay) {
  for (int side = 0; side < 2; side++) {
    direction_t *out = &relay->dirs[side];     /* reads from this socket */
    direction_t *in = &relay->dirs[1 - side];  /* writes to this socket */
    int events = 0;
    /* Reading waits until the pipe is empty: level-triggered readiness on a socket whose bytes
     * cannot move on yet would wake the loop for nothing. */
    if (!out->eof && !limit_reached(out) && out->in_pipe == 0 && out->prefix_off >= out->prefix_len)
      events |= EPOLLIN;
    /* A direction at its limit with nothing left to write waits for one writable event, which
     * ends it (so a relay with nothing to move at all still reports its end, never from start). */
    if (!in->done && (in->in_pipe > 0 || in->prefix_off < in->prefix_len || in->early_error ||
                      limit_reached(in)))
      events |= EPOLLOUT;
    watch(relay, side, events);
  }
}

/* Moves what can move now both ways, a pipe's worth at a time, for up to PIPES_PER_EVENT pipes
 * each way (as libuv reads a stream up to 32 times per event). JS sees the counts once
 * REPORT_BYTES went unreported or REPORT_MS passed (metering, the balance cut-off: it may stop
 * the relay then), and hears of a finished direction or the end. */
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
        /* Bytes that went straight on after a read that filled the pipe: read again (until a
         * read finds less than room, the destination is full, or PIPES_PER_EVENT rounds). */
        if (n > 0 && d->in_pipe == 0 && !d->drained)
          again = 1;
        else
          readable[index] = 0;
      }
      if (d->eof && d->in_pipe == 0 && d->prefix_off >= d->prefix_len) {
        shutdown(d->to, SHUT_WR);
        d->done = 1;
        halves[index] = 1;
      } else if (limit_reached(d) && d->in_pipe == 0 && d->prefix_off >= d->prefix_len) {
        d->done = 1;
      }
    }
    if (relay->dirs[0].done && relay->dirs[1].done) {
      finish(relay, EVENT_DONE, 0, NULL);
      return;
    }
    if (relay->moved && due_report(relay)) emit(relay, EVENT_PROGRESS, 0, NULL);
    if (relay->stopped) return;
    if (!again) break;
  }
  rearm(relay);
  for (int index = 0; index < 2 && !relay->stopped; index++)
    if (halves[index]) emit(relay, EVENT_HALF, index, NULL);
}

/* One socket is ready. EPOLLERR and EPOLLHUP come whatever was asked: a pending error fails
 * the relay; otherwise the socket is read (the reads find the end) or written (the writes find
 * the error). */
static void on_ready(relay_t *relay, int side, uint32_t events) {
  if (relay->stopped) return;
  if (events & EPOLLERR) {
    int error = 0;
    socklen_t length = sizeof error;
    getsockopt(relay->fds[side], SOL_SOCKET, SO_ERROR, &error, &length);
    if (error) {
      fail(relay, side, error);
      return;
    }
  }
  /* Readable on the client feeds direction 0, on the target direction 1. */
  int readable[2] = {0, 0};
  if ((events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && !relay->dirs[side].eof) readable[side] = 1;
  pump(relay, readable);
}

/* A pending connect or running relay more (1) or fewer (-1): the loop is kept alive while any
 * is left, as Node's own sockets would keep it. */
void count_active(watcher_t *watcher, int change) {
  if (change > 0 && watcher->relays++ == 0) uv_ref((uv_handle_t *)&watcher->poll);
  if (change < 0 && --watcher->relays == 0) uv_unref((uv_handle_t *)&watcher->poll);
}

/* Frees a dial that is neither pending nor referenced from JS, unless events are dispatched. */
static void free_dial_when_done(dial_t *dial) {
  if (dial->pending || !dial->finalized) return;
  if (dial->watcher->dispatching) {
    dial->next_free = dial->watcher->dials_to_free;
    dial->watcher->dials_to_free = dial;
    return;
  }
  free(dial);
}

/* The connect is over: its handle names nothing from now on, its memory goes once no event of
 * the batch can point at it. */
static void let_go_of_dial(dial_t *dial) {
  handle_drop(dial->watcher, dial->id, HANDLE_DIAL);
  dial->finalized = 1;
  free_dial_when_done(dial);
}

/* The connect is cancelled: out of the set, the callback let go. */
static void end_dial(dial_t *dial) {
  dial->pending = 0;
  epoll_ctl(dial->watcher->epfd, EPOLL_CTL_DEL, dial->fd, NULL);
  count_active(dial->watcher, -1);
  napi_delete_reference(dial->env, dial->on_connected);
}

/* The connecting socket is writable (connected) or failed: JS hears which. */
static void on_connected(dial_t *dial, uint32_t events) {
  if (!dial->pending) return;
  int error = 0;
  socklen_t length = sizeof error;
  /* A connect that failed always raises EPOLLERR: writable without it is connected, and the
   * socket's error need not be asked for (one system call fewer per tunnel). */
  if ((events & (EPOLLERR | EPOLLHUP)) && getsockopt(dial->fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0)
    error = errno;
  napi_env env = dial->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value argv[2];
  if (error)
    napi_create_string_utf8(env, errno_code(error), NAPI_AUTO_LENGTH, &argv[0]);
  else
    napi_get_undefined(env, &argv[0]);
  napi_create_int32(env, error ? -1 : dial->fd, &argv[1]);
  /* Ended before the call: the callback may cancel (harmless now) or start a relay on the fd.
   * The one-shot registration fired: the descriptor stays in the set, parked, for the relay. */
  dial->pending = 0;
  if (error)
    close(dial->fd);
  else
    park_descriptor(dial->watcher, dial->fd, PARKED);
  call_back(env, NULL, dial->on_connected, 2, argv);
  napi_close_handle_scope(env, scope);
  count_active(dial->watcher, -1);
  napi_delete_reference(env, dial->on_connected);
  let_go_of_dial(dial);
}

#define EVENTS_PER_WAIT 64

/* The set has events: each goes to its relay. Relays stopped meanwhile are skipped, and freed
 * after the batch. */
static void on_set_ready(uv_poll_t *handle, int status, int events) {
  (void)status;
  (void)events;
  watcher_t *watcher = handle->data;
  struct epoll_event ready[EVENTS_PER_WAIT];
  int count = epoll_wait(watcher->epfd, ready, EVENTS_PER_WAIT, 0);
  watcher->dispatching = 1;
  /* One callback scope for the whole batch: each event's JS call is a plain call, and the ticks
   * and promise jobs they queue run once, when the scope closes (a scope per call ran them after
   * every event: three times per short tunnel). */
  napi_env env = watcher->env;
  napi_handle_scope handles;
  napi_callback_scope callbacks = NULL;
  napi_value resource;
  napi_open_handle_scope(env, &handles);
  if (count > 0 && napi_get_reference_value(env, watcher->batch_resource, &resource) == napi_ok &&
      napi_open_callback_scope(env, resource, watcher->batch_context, &callbacks) == napi_ok)
    in_batch++;
  else
    callbacks = NULL;
  for (int i = 0; i < count; i++) {
    watch_t *w = ready[i].data.ptr;
    if (w->dial)
      on_connected(w->dial, ready[i].events);
    else if (w->listener)
      on_acceptable(w->listener);
    else if (w->reader)
      on_readable(w->reader);
    else
      on_ready(w->relay, w->side, ready[i].events);
  }
  watcher->dispatching = 0;
  if (callbacks) {
    in_batch--;
    napi_close_callback_scope(env, callbacks);
  }
  napi_close_handle_scope(env, handles);
  while (watcher->to_free) {
    relay_t *relay = watcher->to_free;
    watcher->to_free = relay->next_free;
    free_relay(relay);
  }
  while (watcher->dials_to_free) {
    dial_t *dial = watcher->dials_to_free;
    watcher->dials_to_free = dial->next_free;
    free(dial);
  }
  while (watcher->others_to_free) {
    freeable_t *memory = watcher->others_to_free;
    watcher->others_to_free = memory->next_free;
    free(memory);
  }
}

/* Frees `memory` now, or after the batch of events being dispatched. */
void defer_free(watcher_t *watcher, freeable_t *memory) {
  if (watcher && watcher->dispatching) {
    memory->next_free = watcher->others_to_free;
    watcher->others_to_free = memory;
    return;
  }
  free(memory);
}

static void free_watcher(uv_handle_t *handle) {
  watcher_t *watcher = handle->data;
  free(watcher->readers);
  free(watcher->parked);
  free(watcher->handles);
  free(watcher->handle_generations);
  free(watcher->free_handles);
  free(watcher);
}

/* The environment (a thread's Node instance) ends: its loop no longer watches the set. */
static void finalize_watcher(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  watcher_t *watcher = data;
  uv_close((uv_handle_t *)&watcher->poll, free_watcher);
  close(watcher->epfd);
  pthread_mutex_lock(&pool_lock);
  epoll_sets--;
  pthread_mutex_unlock(&pool_lock);
}

/* This environment's watcher, made with its first relay; NULL on failure. */
watcher_t *watcher_for(napi_env env) {
  watcher_t *watcher = NULL;
  if (napi_get_instance_data(env, (void **)&watcher) == napi_ok && watcher) return watcher;
  watcher = calloc(1, sizeof *watcher);
  if (!watcher) return NULL;
  watcher->epfd = epoll_create1(EPOLL_CLOEXEC);
  uv_loop_t *loop;
  if (watcher->epfd < 0 || napi_get_uv_event_loop(env, &loop) != napi_ok ||
      uv_poll_init(loop, &watcher->poll, watcher->epfd) != 0) {
    if (watcher->epfd >= 0) close(watcher->epfd);
    free(watcher);
    return NULL;
  }
  watcher->poll.data = watcher;
  watcher->env = env;
  napi_value resource;
  napi_create_object(env, &resource);
  napi_create_reference(env, resource, 1, &watcher->batch_resource);
  async_context_named(env, "ByteTollEvents", &watcher->batch_context);
  uv_poll_start(&watcher->poll, UV_READABLE, on_set_ready);
  uv_unref((uv_handle_t *)&watcher->poll);
  napi_set_instance_data(env, watcher, finalize_watcher, NULL);
  pthread_mutex_lock(&pool_lock);
  epoll_sets++;
  pthread_mutex_unlock(&pool_lock);
  return watcher;
}

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

/* Reads `count` arguments into argv; 0 after throwing when fewer came. */
int arguments_of(napi_env env, napi_callback_info info, size_t count, napi_value *argv, const char *what) {
  size_t argc = count;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < count) {
    napi_throw_type_error(env, NULL, what);
    return 0;
  }
  return 1;
}

/* start()'s optional read limits: a Float64Array(2) (client, target; negative: none), or
 * undefined/null for none. 0 after throwing. */
static int read_limits(napi_env env, napi_value value, double limits[2]) {
  limits[0] = limits[1] = -1;
  napi_valuetype type;
  if (napi_typeof(env, value, &type) != napi_ok) return 0;
  if (type == napi_null || type == napi_undefined) return 1;
  napi_typedarray_type array_type;
  size_t length;
  void *data;
  if (napi_get_typedarray_info(env, value, &array_type, &length, &data, NULL, NULL) != napi_ok ||
      array_type != napi_float64_array || length < 2) {
    napi_throw_type_error(env, NULL, "splice: limits must be a Float64Array(2)");
    return 0;
  }
  limits[0] = ((double *)data)[0];
  limits[1] = ((double *)data)[1];
  return 1;
}

static napi_value start(napi_env env, napi_callback_info info) {
  napi_value argv[7];
  size_t argc = 7;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 6) {
    napi_throw_type_error(env, NULL, "splice: start needs 6 arguments");
    return NULL;
  }
  double limits[2];
  if (argc < 7) napi_get_undefined(env, &argv[6]);
  if (!read_limits(env, argv[6], limits)) return NULL;
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

  relay_t *relay = zeroed(env, sizeof *relay);
  if (!relay) return NULL;
  relay->env = env;
  relay->counts = array_data;
  relay->fds[0] = relay->fds[1] = -1;
  for (int i = 0; i < 2; i++) {
    relay->dirs[i].pipe_fds[0] = relay->dirs[i].pipe_fds[1] = -1;
    relay->dirs[i].limit = limits[i];
  }
  const char *failure = NULL;
  if (copy_prefix(env, argv[2], &relay->dirs[0]) || copy_prefix(env, argv[3], &relay->dirs[1]))
    failure = "splice: toTarget and toClient must be Buffers or null";
  else if (!(relay->watcher = watcher_for(env)))
    failure = "splice: cannot make the epoll set";
  else if ((relay->id = handle_put(relay->watcher, relay, HANDLE_RELAY)) < 0)
    failure = "splice: out of memory";
  if (failure) {
    free_relay(relay);
    napi_throw_error(env, NULL, failure);
    return NULL;
  }
  /* Node made both sockets non-blocking. */
  relay->fds[CLIENT] = client_fd;
  relay->fds[TARGET] = target_fd;
  for (int i = 0; i < 2; i++) relay->watches[i] = (watch_t){relay, i, NULL, NULL, NULL};
  relay->dirs[0].from = relay->fds[CLIENT];
  relay->dirs[0].to = relay->fds[TARGET];
  relay->dirs[1].from = relay->fds[TARGET];
  relay->dirs[1].to = relay->fds[CLIENT];

  pthread_mutex_lock(&pool_lock);
  relays_running++;
  pthread_mutex_unlock(&pool_lock);
  /* A running relay keeps the loop alive, as the sockets' reads would have. */
  count_active(relay->watcher, 1);
  napi_create_reference(env, argv[5], 1, &relay->on_event);
  napi_create_reference(env, argv[4], 1, &relay->counts_ref);

  napi_value handle;
  napi_create_double(env, relay->id, &handle);
  /* Prefix bytes go out as soon as the sockets take them; then reading starts. */
  write_prefixes(relay);
  /* JS reads the counts right after start(): what the prefixes wrote is reported. */
  relay->reported = relay->counts[0] + relay->counts[1] + relay->counts[2] + relay->counts[3];
  relay->reported_at = coarse_ms();
  rearm(relay);
  return handle;
}

/* The one argument of stop() and cancel(): what start() or connect() returned, if it still
 * names a running relay or a pending connect (NULL: it does not, or after throwing). */
static void *handle_argument(napi_env env, napi_callback_info info, int kind) {
  size_t argc = 1;
  napi_value argv[1];
  double id;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_double(env, argv[0], &id) != napi_ok) {
    napi_throw_type_error(env, NULL, "splice: expected what start() or connect() returned");
    return NULL;
  }
  watcher_t *watcher = NULL;
  if (napi_get_instance_data(env, (void **)&watcher) != napi_ok || !watcher) return NULL;
  return handle_get(watcher, id, kind);
}

/* The one argument of the listener calls: what listen() returned; NULL after throwing. */
void *external_argument(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *data = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_external(env, argv[0], &data) != napi_ok) {
    napi_throw_type_error(env, NULL, "splice: expected what listen() returned");
    return NULL;
  }
  return data;
}

static napi_value stop(napi_env env, napi_callback_info info) {
  relay_t *relay = handle_argument(env, info, HANDLE_RELAY);
  if (!relay) return NULL;
  shut(relay);
  release(relay);
  return NULL;
}

/* The socket address of an IP literal (`host`) and a port from `lowest_port` to 65535, for
 * `call` (connect, listen); 0 after throwing. */
int socket_address(napi_env env, napi_value host, napi_value port, int lowest_port, const char *call,
                   struct sockaddr_storage *storage, socklen_t *length) {
  char address[64], message[96];
  size_t address_length;
  int32_t number;
  if (napi_get_value_string_utf8(env, host, address, sizeof address, &address_length) != napi_ok ||
      napi_get_value_int32(env, port, &number) != napi_ok) {
    snprintf(message, sizeof message, "splice: %s needs an address and a port", call);
    napi_throw_type_error(env, NULL, message);
    return 0;
  }
  memset(storage, 0, sizeof *storage);
  struct sockaddr_in *v4 = (struct sockaddr_in *)storage;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)storage;
  if (number < lowest_port || number > 65535) {
    snprintf(message, sizeof message, "splice: %s needs a port from %d to 65535", call, lowest_port);
    napi_throw_type_error(env, NULL, message);
    return 0;
  }
  if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons((uint16_t)number);
    *length = sizeof *v4;
  } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons((uint16_t)number);
    *length = sizeof *v6;
  } else {
    snprintf(message, sizeof message, "splice: %s needs an IPv4 or IPv6 address", call);
    napi_throw_type_error(env, NULL, message);
    return 0;
  }
  return 1;
}

/* Zeroed memory, or NULL after throwing ENOMEM. */
void *zeroed(napi_env env, size_t size) {
  void *memory = calloc(1, size);
  if (!memory) napi_throw_error(env, "ENOMEM", "splice: out of memory");
  return memory;
}

/* What connect and listen return when they fail: the errno name (the socket, if any, closed). */
napi_value failure_of(napi_env env, int fd, int error) {
  napi_value result = NULL;
  if (fd >= 0) close(fd);
  napi_create_string_utf8(env, errno_code(error), NAPI_AUTO_LENGTH, &result);
  return result;
}

/* The watcher, or NULL after throwing. */
watcher_t *watcher_or_throw(napi_env env) {
  watcher_t *watcher = watcher_for(env);
  if (!watcher) napi_throw_error(env, NULL, "splice: cannot make the epoll set");
  return watcher;
}

/* A non-blocking TCP socket for the address's family with Nagle off; -1 with errno. */
int tcp_socket(const struct sockaddr_storage *storage) {
  int fd = socket(storage->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int on = 1;
  if (fd >= 0) setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  return fd;
}

static napi_value connect_to(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  if (!arguments_of(env, info, 3, argv, "splice: connect needs 3 arguments")) return NULL;
  struct sockaddr_storage storage;
  socklen_t storage_length;
  if (!socket_address(env, argv[0], argv[1], 1, "connect", &storage, &storage_length)) return NULL;
  watcher_t *watcher = watcher_or_throw(env);
  if (!watcher) return NULL;
  napi_value result;
  int fd = tcp_socket(&storage);
  int failed = fd < 0 ? errno : 0;
  if (!failed) {
    if (connect(fd, (struct sockaddr *)&storage, storage_length) != 0 && errno != EINPROGRESS) failed = errno;
  }
  dial_t *dial = failed ? NULL : calloc(1, sizeof *dial);
  if (!failed && !dial) failed = ENOMEM;
  if (!failed && (dial->id = handle_put(watcher, dial, HANDLE_DIAL)) < 0) {
    free(dial);
    failed = ENOMEM;
  }
  if (failed) return failure_of(env, fd, failed);
  dial->env = env;
  dial->watcher = watcher;
  dial->fd = fd;
  dial->pending = 1;
  dial->watch = (watch_t){NULL, -1, dial, NULL, NULL};
  /* Writable once connected (or failed): reported even when connect() already succeeded. One
   * shot: once it fired the descriptor stays in the set with no events (parked). */
  forget_descriptor(watcher, fd);
  struct epoll_event e = {.events = EPOLLOUT | EPOLLONESHOT, .data.ptr = &dial->watch};
  epoll_ctl(watcher->epfd, EPOLL_CTL_ADD, fd, &e);
  count_active(watcher, 1);
  napi_create_reference(env, argv[2], 1, &dial->on_connected);
  CHECK(napi_create_double(env, dial->id, &result));
  return result;
}

static napi_value cancel(napi_env env, napi_callback_info info) {
  dial_t *dial = handle_argument(env, info, HANDLE_DIAL);
  if (dial && dial->pending) {
    end_dial(dial);
    close(dial->fd);
    let_go_of_dial(dial);
  }
  return NULL;
}

static napi_value close_descriptor(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (!arguments_of(env, info, 1, argv, "splice: closeDescriptor needs a descriptor")) return NULL;
  int32_t fd;
  CHECK(napi_get_value_int32(env, argv[0], &fd));
  if (fd < 0) return NULL;
  watcher_t *watcher = NULL;
  /* Closed, it leaves the set (a parked or ending registration with it). */
  if (napi_get_instance_data(env, (void **)&watcher) == napi_ok && watcher) forget_descriptor(watcher, fd);
  close(fd);
  return NULL;
}

/* Makes the socket's close send a TCP reset rather than a FIN (SO_LINGER on, 0 s): for a socket
 * Node closes through another handle (a TLS socket over it), where resetting it directly would
 * close it under the TLS layer still reading from it. */
static napi_value reset_on_close(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (!arguments_of(env, info, 1, argv, "splice: resetOnClose needs a descriptor")) return NULL;
  int32_t fd;
  CHECK(napi_get_value_int32(env, argv[0], &fd));
  struct linger linger = {.l_onoff = 1, .l_linger = 0};
  if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, sizeof linger);
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

/* { relays, pipesInUse, pipesPooled, sets }: what the process holds now. */
static napi_value stats(napi_env env, napi_callback_info info) {
  (void)info;
  pthread_mutex_lock(&pool_lock);
  int figures[4] = {relays_running, pipes_in_use, pool_free, epoll_sets};
  pthread_mutex_unlock(&pool_lock);
  const char *names[4] = {"relays", "pipesInUse", "pipesPooled", "sets"};
  napi_value result, value;
  CHECK(napi_create_object(env, &result));
  for (int i = 0; i < 4; i++) {
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
      {"connect", NULL, connect_to, NULL, NULL, NULL, napi_default, NULL},
      {"cancel", NULL, cancel, NULL, NULL, NULL, napi_default, NULL},
      {"closeDescriptor", NULL, close_descriptor, NULL, NULL, NULL, napi_default, NULL},
      {"resetOnClose", NULL, reset_on_close, NULL, NULL, NULL, napi_default, NULL},
      {"listen", NULL, listen_on, NULL, NULL, NULL, napi_default, NULL},
      {"listenerPort", NULL, listener_port, NULL, NULL, NULL, napi_default, NULL},
      {"resumeListener", NULL, resume_listener, NULL, NULL, NULL, napi_default, NULL},
      {"closeListener", NULL, close_listener, NULL, NULL, NULL, napi_default, NULL},
      {"setReadHandler", NULL, set_read_handler, NULL, NULL, NULL, napi_default, NULL},
      {"readSome", NULL, read_some, NULL, NULL, NULL, napi_default, NULL},
      {"cancelRead", NULL, cancel_read, NULL, NULL, NULL, napi_default, NULL},
      {"writeSome", NULL, write_some, NULL, NULL, NULL, napi_default, NULL},
      {"listenSocket", NULL, listen_socket, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
