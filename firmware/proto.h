/* The host's lines: assembly byte by byte, then one answer per line. Portable C. */
#ifndef PROTO_H
#define PROTO_H

#include <stdint.h>

void proto_init(void);
void proto_byte(uint8_t c);  /* feed one received byte */
void proto_overrun(void);    /* the receive buffer overflowed: the current line is damaged */

/* Set when a command changed what the display must show. */
extern volatile uint8_t proto_display_dirty;

#endif
