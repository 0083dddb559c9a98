/* UART0 at BAUD with interrupt-driven ring buffers (AVR only). */
#ifndef UART_H
#define UART_H

#include <stdint.h>

void uart_init(void);
int16_t uart_getc(void);      /* -1 when nothing has arrived */
uint8_t uart_rx_empty(void);
uint8_t uart_take_overrun(void); /* 1 once after the receive buffer overflowed */
/* uart_putc (hw.h) waits while the transmit buffer is full */

#endif
