// OpenSSL's libcrypto, only what LibCrypto wraps: HMAC (RFC 2104) over its message digests, and
// ECDSA P-256 and RSA PKCS #1 v1.5 signatures over SHA-256 (public keys from their components).
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>
#include <openssl/param_build.h>
#include <openssl/core_names.h>

// A public key from parameters. In C because OSSL_PARAM_BLD keeps the pointers it is given (names,
// buffers, numbers) until it builds the parameters, longer than a Swift argument lives. NULL when
// libcrypto refuses the parameters or the key fails its public check (a point off the curve, an
// even modulus or exponent).
static inline EVP_PKEY *clibcrypto_public_key(const char *algorithm, OSSL_PARAM_BLD *builder) {
    EVP_PKEY *key = NULL;
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(builder);
    EVP_PKEY_CTX *context = params ? EVP_PKEY_CTX_new_from_name(NULL, algorithm, NULL) : NULL;
    if (context && EVP_PKEY_fromdata_init(context) == 1) {
        if (EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(params);
    if (key) {
        EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
        if (!check || EVP_PKEY_public_check(check) != 1) {
            EVP_PKEY_free(key);
            key = NULL;
        }
        EVP_PKEY_CTX_free(check);
    }
    return key;
}

// A P-256 public key from its uncompressed point (0x04 || x || y).
static inline EVP_PKEY *clibcrypto_p256_public_key(const unsigned char *point, size_t length) {
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    EVP_PKEY *key = NULL;
    if (builder && OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) == 1
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, length) == 1) {
        key = clibcrypto_public_key("EC", builder);
    }
    OSSL_PARAM_BLD_free(builder);
    return key;
}

// An RSA public key from its modulus and public exponent (unsigned big-endian).
static inline EVP_PKEY *clibcrypto_rsa_public_key(
    const unsigned char *modulus, size_t modulusLength, const unsigned char *exponent, size_t exponentLength) {
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    BIGNUM *n = BN_bin2bn(modulus, (int)modulusLength, NULL);
    BIGNUM *e = BN_bin2bn(exponent, (int)exponentLength, NULL);
    EVP_PKEY *key = NULL;
    if (builder && n && e && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, n) == 1
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, e) == 1) {
        key = clibcrypto_public_key("RSA", builder);
    }
    OSSL_PARAM_BLD_free(builder);
    BN_free(n);
    BN_free(e);
    return key;
}
