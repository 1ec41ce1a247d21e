Feature: Chat drafts and sends
  A conversation has a conversationRevision and its saved draft a draftRevision: compare-and-set
  tokens for saved Chat state. A send reaches the provider, and cancel cannot take it back.

  Background:
    Given the agent is connected to workspace "ws-alpha"
    And the agent reads conversation "conv-plan" in workspace "ws-alpha"

  @REV-41
  Scenario: A draft saved with the current draftRevision is saved and its revision moves on
    When the agent saves the draft "Plan the release" of conversation "conv-plan" in workspace "ws-alpha" as "draft"
    Then the reply is ok
    And operation "draft" reads succeeded with effectState complete
    And Lomi saw 1 "chat.draft.saved" effect
    When the agent reads conversation "conv-plan" in workspace "ws-alpha"
    Then the reply's data includes:
      """
      { "conversationRevision": "1", "messages": [], "draft": { "text": "Plan the release", "draftRevision": "2" } }
      """

  @REV-41
  Scenario: A stale expectedDraftRevision is refused and nothing is saved
    When the agent saves the draft "First words" of conversation "conv-plan" in workspace "ws-alpha" as "first"
    And operation "first" reads succeeded
    And the agent saves the draft "Other words" of conversation "conv-plan" in workspace "ws-alpha" as "second"
    Then the reply is the error REVISION_CONFLICT
    And the error names the field "expectedDraftRevision"
    And Lomi saw 0 dispatches of "second"
    And Lomi saw 1 "chat.draft.saved" effect
    When the agent reads conversation "conv-plan" in workspace "ws-alpha"
    Then the reply's data includes:
      """
      { "draft": { "text": "First words", "draftRevision": "2" } }
      """

  @OP-42 @REV-41
  Scenario: A send is partial once the provider has the message, and complete when its reply arrives
    When the agent sends "Summarise the plan" to conversation "conv-plan" in workspace "ws-alpha" as "ask"
    Then the reply is ok
    # checks OP-42
    And operation "ask" reads running with effectState partial
    And Lomi saw 1 "provider.sent" effect
    When the clock advances by 3 seconds
    Then operation "ask" reads succeeded with effectState complete
    And Lomi saw 1 "provider.replied" effect
    # checks OP-42, REV-41
    When the agent reads conversation "conv-plan" in workspace "ws-alpha"
    Then the reply's data includes:
      """
      { "conversationRevision": "3", "messages": [ { "role": "user", "text": "Summarise the plan" }, { "role": "assistant" } ] }
      """

  @REV-41
  Scenario: A stale expectedConversationRevision is refused and nothing is sent
    When the agent sends "First question" to conversation "conv-plan" in workspace "ws-alpha" as "first"
    And the clock advances by 3 seconds
    And operation "first" reads succeeded
    And the agent sends "Second question" to conversation "conv-plan" in workspace "ws-alpha" as "second"
    Then the reply is the error REVISION_CONFLICT
    And the error names the field "expectedConversationRevision"
    And Lomi saw 0 dispatches of "second"
    And Lomi saw 1 "provider.sent" effect

  @REV-41
  Scenario: A draft save does not make the conversationRevision stale
    When the agent saves the draft "Thinking" of conversation "conv-plan" in workspace "ws-alpha" as "draft"
    And operation "draft" reads succeeded
    And the agent sends "A question" to conversation "conv-plan" in workspace "ws-alpha" as "ask"
    Then the reply is ok
    And Lomi saw 1 "provider.sent" effect

  @CANCEL-40 @OP-42
  Scenario: Cancelling a send whose reply is pending does not undo the provider send
    When the agent sends "Draft the announcement" to conversation "conv-plan" in workspace "ws-alpha" as "ask"
    And operation "ask" reads running with effectState partial
    And the agent cancels "ask"
    Then the cancel outcome is cancelled or cancelling
    And operation "ask" reads cancelled with effectState partial
    And Lomi saw 1 "provider.sent" effect
    When the clock advances by 10 seconds
    Then operation "ask" reads cancelled with effectState partial
    And Lomi saw 0 "provider.replied" effects
    When the agent reads conversation "conv-plan" in workspace "ws-alpha"
    Then the reply's data includes:
      """
      { "conversationRevision": "2", "messages": [ { "role": "user", "text": "Draft the announcement" } ] }
      """

  @CANCEL-40
  Scenario: A held send cancelled and then completed by Lomi still reached the provider
    Given the next dispatch of lomi_chat_send is held
    When the agent sends "Are we ready?" to conversation "conv-plan" in workspace "ws-alpha" as "ask"
    And the agent cancels "ask"
    Then the cancel outcome is cancelling
    And Lomi saw 0 "provider.sent" effects
    When Lomi completes the held dispatch of "ask"
    Then operation "ask" reads cancelled with effectState partial
    And Lomi saw 1 "provider.sent" effect
    When the agent reads operation "ask"
    Then the reply's data includes:
      """
      { "operation": { "result": { "providerReceived": true, "replyMessageId": null } } }
      """

  @CANCEL-03 @CANCEL-43
  Scenario: Cancelling a completed draft save or send changes nothing
    When the agent saves the draft "Keep me" of conversation "conv-plan" in workspace "ws-alpha" as "draft"
    And operation "draft" reads succeeded
    And the agent cancels "draft"
    # checks CANCEL-03
    Then the cancel outcome is already_settled
    And operation "draft" reads succeeded with effectState complete
    When the agent sends "Hello" to conversation "conv-plan" in workspace "ws-alpha" as "hello"
    And the clock advances by 3 seconds
    And operation "hello" reads succeeded
    And the agent cancels "hello"
    Then the cancel outcome is already_settled
    And operation "hello" reads succeeded with effectState complete
    # checks CANCEL-43
    When the agent reads conversation "conv-plan" in workspace "ws-alpha"
    Then the reply's data includes:
      """
      { "messages": [ { "role": "user", "text": "Hello" }, { "role": "assistant" } ], "draft": { "text": "Keep me" } }
      """

  @AUTH-41
  Scenario: A conversation's title is not its ID
    When the agent calls lomi_chat_read with:
      """
      { "workspaceId": "ws-alpha", "conversationId": "Planning" }
      """
    Then the reply is the error NOT_FOUND
    And the error names the field "conversationId"
    When the agent calls lomi_chat_send with:
      """
      { "workspaceId": "ws-alpha", "conversationId": "Planning", "text": "Hi", "expectedConversationRevision": "1",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1" }
      """
    Then the reply is the error NOT_FOUND
    And Lomi saw no dispatch at all
    And Lomi saw 0 "provider.sent" effects

  @SCH-05
  Scenario: An empty message is rejected by name, with nothing sent
    When the agent calls lomi_chat_send with:
      """
      { "workspaceId": "ws-alpha", "conversationId": "conv-plan", "text": "", "expectedConversationRevision": "1",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "text"
    And Lomi saw no dispatch at all
    And Lomi saw 0 "provider.sent" effects

  @SCH-05
  Scenario: A draft save without its revision is rejected by name, with nothing saved
    When the agent calls lomi_chat_draft_save with:
      """
      { "workspaceId": "ws-alpha", "conversationId": "conv-plan", "text": "Hi",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "expectedDraftRevision"
    And Lomi saw no dispatch at all

  @SCH-02
  Scenario: Reading a conversation does not take a request key
    When the agent calls lomi_chat_read with:
      """
      { "workspaceId": "ws-alpha", "conversationId": "conv-plan", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "requestKey"
