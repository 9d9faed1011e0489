// Glibc's Swift module leaves out epoll and eventfd; this exposes just those two system headers.
#include <sys/epoll.h>
#include <sys/eventfd.h>
