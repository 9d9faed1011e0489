// Glibc's Swift module leaves out epoll, eventfd and malloc_trim; this exposes just those system headers.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <malloc.h>
