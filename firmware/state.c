#include "state.h"

unit_state_t unit;

static btn_event_t queue[BUTTON_QUEUE];
static uint8_t q_head, q_count;
static uint16_t last_seq; /* the last number given out; 0 before the first */
static uint16_t dropped;

void state_init(void)
{
    unit.cube = 1;
    unit.owner = 'c';
    unit.offer = '-';
    unit.score_white = unit.score_black = 0;
    unit.length = 0;
    unit.flag = '-';
    unit.shown = 0;
    unit.brightness = BRIGHTNESS_DEFAULT;
    unit.link_lost = 0;
    unit.link_timeout_ms = LINK_TIMEOUT_MS;
    unit.last_rx_ms = 0;
    unit.boot = 0;
    q_head = q_count = 0;
    last_seq = 0;
    dropped = 0;
}

uint8_t btnq_push(uint8_t button)
{
    if (q_count == BUTTON_QUEUE) {
        dropped++;
        return 0;
    }
    last_seq = (uint16_t)(last_seq + 1);
    if (last_seq == 0)
        last_seq = 1;
    btn_event_t *e = &queue[(q_head + q_count) % BUTTON_QUEUE];
    e->seq = last_seq;
    e->button = button;
    q_count++;
    return 1;
}

/* a comes at or before b in the wrapping sequence */
static uint8_t seq_not_after(uint16_t a, uint16_t b)
{
    return (uint16_t)(b - a) < 0x8000u;
}

uint8_t btnq_ack(uint16_t seq)
{
    if (seq == 0 || last_seq == 0 || !seq_not_after(seq, last_seq))
        return 0;
    while (q_count && seq_not_after(queue[q_head].seq, seq)) {
        q_head = (uint8_t)((q_head + 1) % BUTTON_QUEUE);
        q_count--;
    }
    return 1;
}

uint8_t btnq_count(void) { return q_count; }

const btn_event_t *btnq_at(uint8_t i) { return &queue[(q_head + i) % BUTTON_QUEUE]; }

uint16_t btnq_dropped(void) { return dropped; }
