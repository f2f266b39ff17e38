#ifndef CEVENTPOLL_SHIM_H
#define CEVENTPOLL_SHIM_H

/* The kernel interfaces the HTTP server's event loops need that Swift's Glibc module does not
   bring in: epoll, eventfd and accept4 on Linux. On Darwin the loops use kqueue, which the Darwin module
   already has, so this header adds nothing there. No library is linked. */

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

/* A GNU extension (non-blocking, close-on-exec accept in one call) that the Glibc module hides
   without _GNU_SOURCE; it has been in glibc since 2.10. */
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
#endif

#endif
