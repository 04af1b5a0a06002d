"""Discord's message and component limits, declared once.

Plain numbers (no Discord import): the core fits its text to them, the cogs build payloads with them.
See https://discord.com/developers/docs/resources/message#embed-object-embed-limits and the
component reference.
"""

MESSAGE_CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000

EMBEDS_PER_MESSAGE = 10

SELECT_OPTIONS = 25
SELECT_OPTION_LABEL = 100
SELECT_OPTION_VALUE = 100
SELECT_OPTION_DESCRIPTION = 100
SELECT_PLACEHOLDER = 150
BUTTON_LABEL = 80
CUSTOM_ID = 100
THREAD_NAME = 100
ACTION_ROWS = 5

AUTOCOMPLETE_CHOICES = 25
CHOICE_NAME = 100
CHOICE_VALUE = 100

MODAL_TITLE = 45
TEXT_INPUT_LABEL = 45
TEXT_INPUT_VALUE = 4000

INTERACTION_ACK_SECONDS = 3.0

# How wide a phone shows an image in a message (CSS pixels): pictures and charts are laid out for it.
PHONE_IMAGE_WIDTH = 360
