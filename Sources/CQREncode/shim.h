// libqrencode (Debian's libqrencode-dev, Homebrew's qrencode): the QR code matrix of a string,
// for the terminal client only.
#include <qrencode.h>
