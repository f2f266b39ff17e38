// OpenSSL's libcrypto, only what LibCrypto wraps: HMAC (RFC 2104) over its message digests, and
// ECDSA P-256 and RSA PKCS #1 v1.5 signatures over SHA-256 (public keys from their components).
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>
#include <openssl/param_build.h>
#include <openssl/core_names.h>
#include <openssl/x509.h>
#include <string.h>

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

// A private key from a DER PKCS #8 PrivateKeyInfo (what an Apple .p8 file holds under its PEM
// armour), when it is a P-256 key and nothing follows it; NULL otherwise.
static inline EVP_PKEY *clibcrypto_p256_private_key_pkcs8(const unsigned char *der, size_t length) {
    const unsigned char *cursor = der;
    PKCS8_PRIV_KEY_INFO *info = d2i_PKCS8_PRIV_KEY_INFO(NULL, &cursor, (long)length);
    if (!info) return NULL;
    EVP_PKEY *key = cursor == der + length ? EVP_PKCS82PKEY(info) : NULL;
    PKCS8_PRIV_KEY_INFO_free(info);
    char group[32] = {0};
    if (key && (EVP_PKEY_is_a(key, "EC") != 1
        || EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, NULL) != 1
        || strcmp(group, "prime256v1") != 0)) {
        EVP_PKEY_free(key);
        key = NULL;
    }
    return key;
}

// The DER PKCS #8 PrivateKeyInfo of a key into `out`; its length, or 0 when it does not fit.
static inline int clibcrypto_private_key_pkcs8(EVP_PKEY *key, unsigned char *out, int capacity) {
    PKCS8_PRIV_KEY_INFO *info = EVP_PKEY2PKCS8(key);
    if (!info) return 0;
    int length = i2d_PKCS8_PRIV_KEY_INFO(info, NULL);
    if (length > 0 && length <= capacity) {
        unsigned char *cursor = out;
        length = i2d_PKCS8_PRIV_KEY_INFO(info, &cursor);
    } else {
        length = 0;
    }
    PKCS8_PRIV_KEY_INFO_free(info);
    return length > 0 ? length : 0;
}

// A DER ECDSA-Sig-Value of P-256 as JOSE's 64 bytes r || s; 0 when it is not one (or has bytes after it).
static inline int clibcrypto_p256_signature_raw(const unsigned char *der, size_t length, unsigned char *out) {
    const unsigned char *cursor = der;
    ECDSA_SIG *signature = d2i_ECDSA_SIG(NULL, &cursor, (long)length);
    if (!signature) return 0;
    const BIGNUM *r = NULL, *s = NULL;
    ECDSA_SIG_get0(signature, &r, &s);
    int done = cursor == der + length && BN_bn2binpad(r, out, 32) == 32 && BN_bn2binpad(s, out + 32, 32) == 32;
    ECDSA_SIG_free(signature);
    return done;
}

// JOSE's 64 bytes r || s as a DER ECDSA-Sig-Value into `out` (72 bytes at least); its length, or 0.
static inline int clibcrypto_p256_signature_der(const unsigned char *raw, unsigned char *out) {
    ECDSA_SIG *signature = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(raw, 32, NULL);
    BIGNUM *s = BN_bin2bn(raw + 32, 32, NULL);
    if (!signature || !r || !s || ECDSA_SIG_set0(signature, r, s) != 1) {
        ECDSA_SIG_free(signature);
        BN_free(r);
        BN_free(s);
        return 0;
    }
    unsigned char *cursor = out;
    int length = i2d_ECDSA_SIG(signature, &cursor);
    ECDSA_SIG_free(signature);
    return length > 0 && length <= 72 ? length : 0;
}
