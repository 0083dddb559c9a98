/* The unit's state: what the host last asked it to show, the link, and the
 * queue of button events waiting for the host's acknowledgement. Portable C. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>

#include "config.h"

typedef struct {
    uint16_t cube;       /* 1..4096; 1 is shown as 64 */
    char owner;          /* 'c' centre, 'w', 'b' */
    char offer;          /* '-' none, 'w' or 'b' doubled */
    uint8_t score_white;
    uint8_t score_black;
    uint8_t length;      /* 0: money session */
    char flag;           /* '-', 'c' Crawford game, 'p' post-Crawford */
    uint8_t shown;       /* the host has sent a state since boot */
    uint8_t brightness;  /* 0..15 */
    uint8_t link_lost;
    uint16_t link_timeout_ms; /* 0: never lost */
    uint32_t last_rx_ms;
    uint16_t boot; /* boots counted in EEPROM: names this run of the firmware */
} unit_state_t;

typedef struct {
    uint16_t seq;
    uint8_t button; /* 0..5: player * 3 + (double, take, pass) */
} btn_event_t;

extern unit_state_t unit;

void state_init(void);

/* Button events: numbered 1..65535 (then 1 again), kept until acknowledged. */
uint8_t btnq_push(uint8_t button);      /* 0 when the queue is full (counted as dropped) */
uint8_t btnq_ack(uint16_t seq);         /* 0 when seq was never sent */
uint8_t btnq_count(void);
const btn_event_t *btnq_at(uint8_t i);  /* i-th oldest unacknowledged event */
uint16_t btnq_dropped(void);

#endif
