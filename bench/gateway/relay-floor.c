/*
 * The floor for a user-space relay on this machine: a TCP forwarder (127.0.0.1:<listen> to
 * 127.0.0.1:<origin>, one connection at a time) in C, copying both ways either with read/write
 * through a 64 KiB buffer (mode "r", what the gateway does) or with splice(2) through a pipe
 * (mode "s", zero-copy). bench/gateway/connect-cpu.ts builds and measures it with BENCH_FLOOR=1.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static int tcp(int port, int listening) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  if (!listening) return connect(s, (struct sockaddr *)&a, sizeof a) == 0 ? s : -1;
  int one = 1;
  setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 16)) exit(1);
  return s;
}

/* Moves what is readable on `from` to `to`; returns 0 once `from` has finished. */
static ssize_t relay(int from, int to, int pipe_fds[2], char mode) {
  static char buffer[65536];
  ssize_t n;
  if (mode == 's') {
    n = splice(from, NULL, pipe_fds[1], NULL, 1 << 20, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    for (ssize_t left = n; left > 0;) {
      ssize_t w = splice(pipe_fds[0], NULL, to, NULL, left, SPLICE_F_MOVE);
      if (w <= 0) return 0;
      left -= w;
    }
    return n;
  }
  n = read(from, buffer, sizeof buffer);
  for (ssize_t done = 0; n > 0 && done < n;) {
    ssize_t w = write(to, buffer + done, n - done);
    if (w <= 0) return 0;
    done += w;
  }
  return n;
}

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  int listener = tcp(atoi(argv[1]), 1);
  char mode = argv[3][0];
  for (;;) {
    int fds[2] = {accept(listener, NULL, NULL), tcp(atoi(argv[2]), 0)};
    int pipes[2][2];
    pipe(pipes[0]);
    pipe(pipes[1]);
    fcntl(pipes[0][0], F_SETPIPE_SZ, 1 << 20);
    fcntl(pipes[1][0], F_SETPIPE_SZ, 1 << 20);
    struct pollfd polled[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
    for (int open = fds[1] >= 0; open;) {
      poll(polled, 2, -1);
      for (int i = 0; i < 2 && open; i++) {
        if (polled[i].revents & (POLLIN | POLLHUP))
          open = relay(fds[i], fds[1 - i], pipes[i], mode) != 0;
      }
    }
    for (int i = 0; i < 2; i++) {
      close(fds[i]);
      close(pipes[i][0]);
      close(pipes[i][1]);
    }
  }
}
