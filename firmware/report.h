/* Everything the unit sends goes through here (grbl's report.c). */
#ifndef REPORT_H
#define REPORT_H

#include <stdint.h>

#include "state.h"

enum { RESET_POWER = 0, RESET_EXTERNAL, RESET_BROWNOUT, RESET_WATCHDOG };

void report_ok(void);
void report_error(uint8_t code);
void report_banner(uint8_t reset_cause);
void report_button(const btn_event_t *e);
void report_state(void);
void report_sync(const char *token);
void report_help(void);

#endif
