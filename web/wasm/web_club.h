/*
 * web_club.h: the club's published numbers on the page (issue 38): a
 * relay's ratings list recomputed from its logs by the same C as `tabula
 * ratings` (club/club.h's list), and a tournament folder's signed
 * documents read by the director's reader (club/director.h) with its
 * standings and crosstable made by club/tourney.h. The page downloads;
 * everything it shows of these is made here. Conventions as web_api.h's
 * (strings out through web_out; errors are TB_E_* codes, web_last_why
 * says why).
 */
#ifndef TABULA_WEB_CLUB_H
#define TABULA_WEB_CLUB_H

#include <stddef.h>
#include <stdint.h>

typedef struct Club_List Web_Ratings;
typedef struct Club_Dir Web_Tourney;

/* web_ratings_new: an empty ratings list (club_list_new): every relay
 * trusted until web_ratings_trust names one. NULL on TB_E_NOMEM. */
Web_Ratings *web_ratings_new(void);
void web_ratings_free(Web_Ratings *l);

/* web_ratings_trust: rate only games witnessed by the relay relay (its
 * fingerprint or key in hex), as `tabula ratings --relay` does; again
 * for more. 0, TB_E_ARG (neither form), TB_E_LIMIT. */
int web_ratings_trust(Web_Ratings *l, const char *relay);

/* web_ratings_add: one log buf[0..len) (club_list_add): the
 * Club_List_Outcome (0 rated, 1 another game, 2 does not verify, 3 not
 * rated, 4 an untrusted relay's) or a negative error; web_last_why then
 * holds the reason of a log that does not verify. */
int web_ratings_add(Web_Ratings *l, const uint8_t *buf, size_t len);

/* web_ratings_unreadable: one log that could not be downloaded, counted
 * as `tabula ratings` counts a file it cannot read. 0 or TB_E_STATE. */
int web_ratings_unreadable(Web_Ratings *l);

/* web_ratings_text: the list's text, exactly `tabula ratings`'s standard
 * output for the same logs and relays (club_list_text); NULL on error. */
const char *web_ratings_text(Web_Ratings *l);

/* web_index_log: the log's name a relay archive's index line (no
 * newline) gives, read by club_index_line (the reader `tabula tournament
 * collect --from` uses); NULL with web_last_error/web_last_why (in the
 * page's language) for a line it refuses. */
const char *web_index_log(const char *line);

/* web_tourney_new: an empty tournament (club_dir_new); NULL on
 * TB_E_NOMEM. web_tourney_free releases one (NULL is fine). */
Web_Tourney *web_tourney_new(void);
void web_tourney_free(Web_Tourney *d);

/* web_tourney_read: one signed document text[0..len) of kind (1
 * tournament.txt, 2 round-N.pairings, 3 round-N.results; in the order a
 * director writes them) read with club_dir_read: its signature by the
 * director and every line. 0, or club_dir_read's error; web_last_why
 * then says "LINE: WHY" in the page's language (LINE 0: the whole
 * document). */
int web_tourney_read(Web_Tourney *d, int kind, const uint8_t *text, size_t len);

/*
 * web_tourney_view: what the documents read so far say, one line each,
 * fields separated by tabs (tabs in names become spaces):
 *   "tournament\tNAME\tGAME\tCLOCK\tSYSTEM\tROUNDS\tDIRECTOR"
 *     (CLOCK "" for none; ROUNDS the rounds to play; DIRECTOR the
 *     director's fingerprint)
 *   "player\tRANK\tSHOWN\tFINGERPRINT" (SHOWN the registered name, else
 *     the fingerprint)
 *   "board\tROUND\tBOARD\tWHITE\tBLACK\tRESULT" (WHITE, BLACK shown as
 *     above; RESULT White's and Black's table points "1-0", "0.5-0.5",
 *     "2-1", or "" without a result yet)
 *   "bye\tROUND\tBOARD\tPLAYER"
 *   "standings\tROUNDS\tSAME" after the last round with results: SAME 1
 *     when the standings its results document published are the ones
 *     computed from its results (club_standings), 0 otherwise
 * then the crosstable after those rounds (club_crosstable_html, its
 * column titles in the page's language) as the rest of the text, after a
 * line "crosstable". NULL on error (web_last_why).
 */
const char *web_tourney_view(Web_Tourney *d);

#endif /* TABULA_WEB_CLUB_H */
