/* Button debouncing, sampled once a millisecond. Portable C. */
#ifndef BUTTONS_H
#define BUTTONS_H

#include <stdint.h>

void buttons_init(void);
/* raw: bit i set while button i reads pressed. Returns the buttons that have
 * just become pressed after reading pressed for DEBOUNCE_MS samples in a row. */
uint8_t buttons_sample(uint8_t raw);

#endif
