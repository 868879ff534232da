/* What the relay (splice.c) and the front door (accept.c) share: the epoll set each event loop
 * watches as one descriptor, and how either calls back into JavaScript. */
#ifndef BYTETOLL_SPLICE_SHARED_H
#define BYTETOLL_SPLICE_SHARED_H

#include <node_api.h>
#include <stdint.h>
#include <sys/socket.h>
#include <uv.h>

typedef struct relay relay_t;
typedef struct watcher watcher_t;
typedef struct dial dial_t;
typedef struct listener listener_t;
typedef struct reader reader_t;

/* What an epoll event points at: one socket of one relay, a connect in progress, a listening
 * socket, or an accepted socket whose first bytes are awaited. */
typedef struct {
  relay_t *relay;
  int side;
  dial_t *dial;
  listener_t *listener;
  reader_t *reader;
} watch_t;

/* Memory that an event later in the same batch may still point at is freed after the batch:
 * structs that go through defer_free start with this. */
typedef struct freeable {
  struct freeable *next_free;
} freeable_t;

/* One per event loop (Node's main thread, each worker thread): the epoll set of every running
 * relay's sockets, pending connect, listener and awaited read, and the uv_poll that tells the
 * loop when it has events. */
struct watcher {
  int epfd;
  uv_poll_t poll;
  /* Running relays, pending connects and reads, listeners: while there are any, the loop stays
   * alive. */
  int relays;
  /* While events are dispatched, nothing is freed (a later event of the same batch may point at
   * it): it waits here. */
  int dispatching;
  relay_t *to_free;
  dial_t *dials_to_free;
  freeable_t *others_to_free;
  /* Accepted sockets whose first bytes are awaited (readSome), by descriptor, and the one JS
   * function and async context their reads are reported through. */
  reader_t **readers;
  int readers_size;
  napi_ref on_read;
  napi_async_context read_context;
  napi_env poll_env;
  /* The environment the set belongs to, and the async context and resource every batch of its
   * events is dispatched in (one callback scope per batch, see on_set_ready). */
  napi_env env;
  napi_async_context batch_context;
  napi_ref batch_resource;
  /* Descriptors still in the set that nobody waits on, by descriptor: PARKED once a one-shot
   * wait fired (a connect, a first read; no events), so the relay that takes them on re-arms
   * them with one EPOLL_CTL_MOD instead of a DEL now and an ADD later; ENDING while a relay's
   * end is reported to JavaScript, which mostly closes them (the close takes them out of the set)
   * and may hand them to a new wait (which re-arms them): whatever is still ENDING afterwards is
   * removed. A stale mark (the descriptor closed elsewhere and its number reused) only costs a
   * failed MOD and an ADD. */
  unsigned char *parked;
  int parked_size;
  /* What JavaScript holds of a running relay or a pending connect: a number naming a slot of
   * this table and its use (generation), so a stale number finds nothing; no JS object, weak
   * reference or finalizer per tunnel. */
  void **handles;
  uint32_t *handle_generations;
  int handles_size;
  int *free_handles;
  int free_handle_count;
};

#define CHECK(call)                                                        \
  do {                                                                     \
    if ((call) != napi_ok) {                                               \
      napi_throw_error(env, NULL, "splice: bad arguments to " #call);      \
      return NULL;                                                         \
    }                                                                      \
  } while (0)

void count_active(watcher_t *watcher, int change);
watcher_t *watcher_for(napi_env env);
watcher_t *watcher_or_throw(napi_env env);
int tcp_socket(const struct sockaddr_storage *storage);
napi_value failure_of(napi_env env, int fd, int error);
void *zeroed(napi_env env, size_t size);
void defer_free(watcher_t *watcher, freeable_t *memory);
void call_back(napi_env env, napi_async_context context, napi_ref fn, size_t argc, napi_value *argv);
void async_context_named(napi_env env, const char *name, napi_async_context *context);
const char *errno_code(int error);
int arguments_of(napi_env env, napi_callback_info info, size_t count, napi_value *argv, const char *what);
void *external_argument(napi_env env, napi_callback_info info);
int socket_address(napi_env env, napi_value host, napi_value port, int lowest_port, const char *call,
                   struct sockaddr_storage *storage, socklen_t *length);

int table_hold(void **table, int *size, size_t element, int index);
int arm_descriptor(watcher_t *watcher, int fd, uint32_t events, void *data);
enum { PARKED = 1, ENDING = 2 };
void park_descriptor(watcher_t *watcher, int fd, int how);
void forget_descriptor(watcher_t *watcher, int fd);

/* accept.c */
void on_acceptable(listener_t *listener);
void on_readable(reader_t *reader);
napi_value listen_on(napi_env env, napi_callback_info info);
napi_value listener_port(napi_env env, napi_callback_info info);
napi_value resume_listener(napi_env env, napi_callback_info info);
napi_value close_listener(napi_env env, napi_callback_info info);
napi_value set_read_handler(napi_env env, napi_callback_info info);
napi_value read_some(napi_env env, napi_callback_info info);
napi_value cancel_read(napi_env env, napi_callback_info info);
napi_value write_some(napi_env env, napi_callback_info info);
napi_value listen_socket(napi_env env, napi_callback_info info);

#endif
