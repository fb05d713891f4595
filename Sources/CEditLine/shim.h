#ifndef GRAPHSTORE_CEDITLINE_SHIM_H
#define GRAPHSTORE_CEDITLINE_SHIM_H
// The native libedit API. Never <readline/readline.h>: on Linux that may be GNU readline.
#include <histedit.h>
#include <stdio.h>

// el_set, el_get and history are variadic, which Swift cannot call: one small wrapper per use.
typedef char *(*graphstore_prompt_fn)(EditLine *);

/// el_init on the process's standard streams (Swift 6 cannot touch the C globals stdin/stdout).
/// With echo_to_stderr, the prompt and the line being edited go to standard error, so that
/// `graphstore STORE > out.txt` at a terminal keeps prompts out of the results.
static inline EditLine *graphstore_el_init(const char *program, int echo_to_stderr) {
    return el_init(program, stdin, echo_to_stderr ? stderr : stdout, stderr);
}
typedef unsigned char (*graphstore_command_fn)(EditLine *, int);

static inline int graphstore_el_set_prompt(EditLine *el, graphstore_prompt_fn fn) {
    return el_set(el, EL_PROMPT, fn);
}
static inline int graphstore_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}
/// "emacs" or "vi" (an ~/.editrc `bind -v` switches to vi).
static inline const char *graphstore_el_get_editor(EditLine *el) {
    const char *mode = NULL;
    el_get(el, EL_EDITOR, &mode);
    return mode;
}
static inline int graphstore_el_set_history(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}
static inline int graphstore_el_set_signal(EditLine *el, int on) {
    return el_set(el, EL_SIGNAL, on);
}
static inline int graphstore_el_add_function(EditLine *el, const char *name, const char *help, graphstore_command_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}
static inline int graphstore_el_bind(EditLine *el, const char *key, const char *name) {
    return el_set(el, EL_BIND, key, name, NULL);
}
/// Puts the terminal in (or out of) libedit's raw mode now, rather than at the first key read.
static inline int graphstore_el_prep_term(EditLine *el, int on) {
    return el_set(el, EL_PREP_TERM, on);
}
/// Replaces libedit's character reader (see EditLineSource.readCharacter).
static inline int graphstore_el_set_getc(EditLine *el, el_rfunc_t fn) {
    return el_set(el, EL_GETCFN, fn);
}
static inline int graphstore_el_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}
static inline void *graphstore_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}
static inline int graphstore_history_set_size(History *h, HistEvent *ev, int size) {
    return history(h, ev, H_SETSIZE, size);
}
static inline int graphstore_history_enter(History *h, HistEvent *ev, const char *line) {
    return history(h, ev, H_ENTER, line);
}
static inline int graphstore_history_load(History *h, HistEvent *ev, const char *path) {
    return history(h, ev, H_LOAD, path);
}
static inline int graphstore_history_save(History *h, HistEvent *ev, const char *path) {
    return history(h, ev, H_SAVE, path);
}
static inline int graphstore_history_unique(History *h, HistEvent *ev, int on) {
    return history(h, ev, H_SETUNIQUE, on);
}
#endif
