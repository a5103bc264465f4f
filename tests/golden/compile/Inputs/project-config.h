// A project's own configuration header: after it, the translator cannot know which of the
// project's macros are defined.
#pragma once
#define PROJECT_BLOCK 256
