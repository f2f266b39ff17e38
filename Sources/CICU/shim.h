// ICU's spoof checker (UTS #39) and script data, for the UnicodeSecurity module only.
//
// ICU renames its C functions per version (uspoof_open is really uspoof_open_72 in Debian 12's
// ICU, uspoof_open_76 in Homebrew's), through macros that Swift does not import. These inline
// functions are compiled as C, where the macros apply, so Swift calls one name whatever the
// version. Swift's Foundation on Linux carries its own ICU with every C symbol prefixed `swift_`
// and its C++ in another `icu_NN` namespace, so the two never clash.
#include <unicode/uspoof.h>
#include <unicode/uscript.h>
#include <unicode/uchar.h>
#include <unicode/uversion.h>
#include <unicode/utypes.h>

static inline USpoofChecker *cicu_spoof_open(UErrorCode *status) { return uspoof_open(status); }
static inline void cicu_spoof_close(USpoofChecker *checker) { uspoof_close(checker); }

static inline void cicu_spoof_set_restriction_level(USpoofChecker *checker, URestrictionLevel level) {
    uspoof_setRestrictionLevel(checker, level);
}

static inline void cicu_spoof_set_checks(USpoofChecker *checker, int32_t checks, UErrorCode *status) {
    uspoof_setChecks(checker, checks, status);
}

/// The failed checks of a UTF-8 identifier (0 when it passes).
static inline int32_t cicu_spoof_check_utf8(const USpoofChecker *checker, const char *text, int32_t length, UErrorCode *status) {
    return uspoof_check2UTF8(checker, text, length, NULL, status);
}

/// The UTS #39 skeleton of a UTF-8 identifier into `out`; returns its length (which may exceed `capacity`).
static inline int32_t cicu_spoof_skeleton_utf8(
    const USpoofChecker *checker, const char *text, int32_t length, char *out, int32_t capacity, UErrorCode *status) {
    return uspoof_getSkeletonUTF8(checker, 0, text, length, out, capacity, status);
}

/// The Script_Extensions of a code point as short script names ("Latn", "Zyyy") into `out`.
static inline int32_t cicu_script_extensions(UChar32 c, const char **out, int32_t capacity, UErrorCode *status) {
    UScriptCode codes[32];
    int32_t count = uscript_getScriptExtensions(c, codes, 32, status);
    if (U_FAILURE(*status)) return 0;
    for (int32_t i = 0; i < count && i < capacity; i++) out[i] = uscript_getShortName(codes[i]);
    return count;
}

static inline const char *cicu_error_name(UErrorCode status) { return u_errorName(status); }
static inline int cicu_failed(UErrorCode status) { return U_FAILURE(status); }

/// ICU's version ("72.1") into `out` (at least U_MAX_VERSION_STRING_LENGTH bytes).
static inline void cicu_icu_version(char *out) {
    UVersionInfo version;
    u_getVersion(version);
    u_versionToString(version, out);
}

/// The Unicode version of ICU's data ("15.0") into `out` (at least U_MAX_VERSION_STRING_LENGTH bytes).
static inline void cicu_unicode_version(char *out) {
    UVersionInfo version;
    u_getUnicodeVersion(version);
    u_versionToString(version, out);
}
