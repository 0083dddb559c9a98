/* What the portable modules need from the board (main.c on the AVR, a fake in
 * the host tests). */
#ifndef HW_H
#define HW_H

#include <stdint.h>

/* String literals kept in flash on the AVR, plain pointers on the host. */
#ifdef __AVR__
#include <avr/pgmspace.h>
#define P(s) PSTR(s)
#define P_READ(p) pgm_read_byte(p)
#else
#define P(s) (s)
#define P_READ(p) (*(const uint8_t *)(p))
#endif

uint32_t hw_millis(void);
void hw_hang(void); /* stop feeding the watchdog: the unit resets (TEST WDT) */
void uart_putc(char c);

#endif
