// OpenSSL's libcrypto, only what LibCrypto wraps: HMAC (RFC 2104) over its message digests.
#include <openssl/evp.h>
#include <openssl/hmac.h>
