export interface paths {
    "/channels/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the channels the API key may use
         * @description The same as POST channels/list, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["channelsListGet"];
        put?: never;
        /**
         * List the channels the API key may use
         * @description List the channels the API key may use. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["channelsList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/manage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Create a contact, or update the one matched by phone number
         * @description The same as POST contacts/manage, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["contactsManageGet"];
        put?: never;
        /**
         * Create a contact, or update the one matched by phone number
         * @description Create a contact, or update the one matched by phone number. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["contactsManage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Create or update up to 1,000 contacts in one call, each as contacts/manage would
         * @description The same as POST contacts/import, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_import`: 10 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["contactsImportGet"];
        put?: never;
        /**
         * Create or update up to 1,000 contacts in one call, each as contacts/manage would
         * @description Create or update up to 1,000 contacts in one call, each as contacts/manage would. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_import`: 10 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["contactsImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List and search the contacts of a channel, paginated
         * @description The same as POST contacts/list, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["contactsListGet"];
        put?: never;
        /**
         * List and search the contacts of a channel, paginated
         * @description List and search the contacts of a channel, paginated. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["contactsList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Erase a contact: its data, labels, custom field values, conversation and message contents
         * @description The same as POST contacts/delete, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["contactsDeleteGet"];
        put?: never;
        /**
         * Erase a contact: its data, labels, custom field values, conversation and message contents
         * @description Erase a contact: its data, labels, custom field values, conversation and message contents. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["contactsDelete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/labels/manage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Create a label, or update the one matched by name
         * @description The same as POST labels/manage, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["labelsManageGet"];
        put?: never;
        /**
         * Create a label, or update the one matched by name
         * @description Create a label, or update the one matched by name. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["labelsManage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/labels/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the labels of a channel
         * @description The same as POST labels/list, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["labelsListGet"];
        put?: never;
        /**
         * List the labels of a channel
         * @description List the labels of a channel. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["labelsList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/custom-fields/manage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Create a custom field definition, or update the one matched by name
         * @description The same as POST custom-fields/manage, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["customFieldsManageGet"];
        put?: never;
        /**
         * Create a custom field definition, or update the one matched by name
         * @description Create a custom field definition, or update the one matched by name. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["customFieldsManage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/custom-fields/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the custom field definitions of a channel
         * @description The same as POST custom-fields/list, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["customFieldsListGet"];
        put?: never;
        /**
         * List the custom field definitions of a channel
         * @description List the custom field definitions of a channel. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["customFieldsList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chat/templates/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the approved message templates of a channel, with their variable counts
         * @description The same as POST chat/templates/list, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["chatTemplatesListGet"];
        put?: never;
        /**
         * List the approved message templates of a channel, with their variable counts
         * @description List the approved message templates of a channel, with their variable counts. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["chatTemplatesList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chat/templates/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Send an approved template message
         * @description The same as POST chat/templates/send, with the parameters in the query string (lists comma-separated, objects as JSON). Numbered parameters (body1, body2, …) are accepted as well; see the POST body schema.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["chatTemplatesSendGet"];
        put?: never;
        /**
         * Send an approved template message
         * @description Send an approved template message. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["chatTemplatesSend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chat/message/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Send a text, media, interactive, location or reaction message inside the 24-hour session window, optionally quoting one
         * @description The same as POST chat/message/send, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["chatMessageSendGet"];
        put?: never;
        /**
         * Send a text, media, interactive, location or reaction message inside the 24-hour session window, optionally quoting one
         * @description Send a text, media, interactive, location or reaction message inside the 24-hour session window, optionally quoting one. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["chatMessageSend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chat/message/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the delivery status of a message by its chatmid
         * @description The same as POST chat/message/status, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["chatMessageStatusGet"];
        put?: never;
        /**
         * Read the delivery status of a message by its chatmid
         * @description Read the delivery status of a message by its chatmid. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["chatMessageStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chat/message/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Mark a message the contact sent as read, optionally with the typing indicator
         * @description The same as POST chat/message/read, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["chatMessageReadGet"];
        put?: never;
        /**
         * Mark a message the contact sent as read, optionally with the typing indicator
         * @description Mark a message the contact sent as read, optionally with the typing indicator. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["chatMessageRead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chat/messages/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the messages of one contact in the channel, inbound and outbound, newest first
         * @description The same as POST chat/messages/list, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["chatMessagesListGet"];
        put?: never;
        /**
         * List the messages of one contact in the channel, inbound and outbound, newest first
         * @description List the messages of one contact in the channel, inbound and outbound, newest first. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["chatMessagesList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/automations/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the automations of a channel with their execution counts
         * @description The same as POST automations/list, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["automationsListGet"];
        put?: never;
        /**
         * List the automations of a channel with their execution counts
         * @description List the automations of a channel with their execution counts. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["automationsList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/automations/trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Run an automation for a phone number
         * @description The same as POST automations/trigger, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_automation_trigger`: 20 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["automationsTriggerGet"];
        put?: never;
        /**
         * Run an automation for a phone number
         * @description Run an automation for a phone number. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_automation_trigger`: 20 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["automationsTrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/manage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Subscribe a URL to the channel's events, or update the subscription registered for it
         * @description The same as POST webhooks/manage, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Admin keys only: a team key gets 403 `forbidden`.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["webhooksManageGet"];
        put?: never;
        /**
         * Subscribe a URL to the channel's events, or update the subscription registered for it
         * @description Subscribe a URL to the channel's events, or update the subscription registered for it. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Admin keys only: a team key gets 403 `forbidden`.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["webhooksManage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the channel's webhook subscriptions and how their deliveries fare
         * @description The same as POST webhooks/list, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["webhooksListGet"];
        put?: never;
        /**
         * List the channel's webhook subscriptions and how their deliveries fare
         * @description List the channel's webhook subscriptions and how their deliveries fare. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["webhooksList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the deliveries of a webhook subscription, newest first, with their attempts and errors
         * @description The same as POST webhooks/deliveries, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["webhooksDeliveriesGet"];
        put?: never;
        /**
         * List the deliveries of a webhook subscription, newest first, with their attempts and errors
         * @description List the deliveries of a webhook subscription, newest first, with their attempts and errors. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["webhooksDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deliver an event to a webhook subscription again (same webhook-id)
         * @description The same as POST webhooks/redeliver, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["webhooksRedeliverGet"];
        put?: never;
        /**
         * Deliver an event to a webhook subscription again (same webhook-id)
         * @description Deliver an event to a webhook subscription again (same webhook-id). Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["webhooksRedeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the channel's events oldest first, as webhooks deliver them (cursor-paged, kept at least 7 days)
         * @description The same as POST events/list, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["eventsListGet"];
        put?: never;
        /**
         * Read the channel's events oldest first, as webhooks deliver them (cursor-paged, kept at least 7 days)
         * @description Read the channel's events oldest first, as webhooks deliver them (cursor-paged, kept at least 7 days). Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["eventsList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Delete a webhook subscription: nothing more is delivered to it and its delivery log goes
         * @description The same as POST webhooks/delete, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Admin keys only: a team key gets 403 `forbidden`.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["webhooksDeleteGet"];
        put?: never;
        /**
         * Delete a webhook subscription: nothing more is delivered to it and its delivery log goes
         * @description Delete a webhook subscription: nothing more is delivered to it and its delivery log goes. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Admin keys only: a team key gets 403 `forbidden`.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["webhooksDelete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chat/media/get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Open an inbound message's media: a short-lived link to its bytes that needs no API key
         * @description The same as POST chat/media/get, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["chatMediaGetGet"];
        put?: never;
        /**
         * Open an inbound message's media: a short-lived link to its bytes that needs no API key
         * @description Open an inbound message's media: a short-lived link to its bytes that needs no API key. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["chatMediaGet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chat/media/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Upload a file (base64) to the chat network; send it by the answered mediaId
         * @description The same as POST chat/media/upload, with the parameters in the query string (lists comma-separated, objects as JSON).
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        get: operations["chatMediaUploadGet"];
        put?: never;
        /**
         * Upload a file (base64) to the chat network; send it by the answered mediaId
         * @description Upload a file (base64) to the chat network; send it by the answered mediaId. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment).
         */
        post: operations["chatMediaUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI document (public: no API key) */
        get: operations["openApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the user's own keys; never a secret
         * @description List the user's own keys; never a secret. Signed in to the portal: the user pool's ID token as `Authorization: Bearer`, and the permission `settings:api` (else 403). Answers the JSON itself, no envelope; refusals are the API's envelope.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment). (the signed-in user's API user's limit)
         */
        get: operations["portalKeysList"];
        put?: never;
        /**
         * Create an API key for the signed-in user (its value shown once)
         * @description Create an API key for the signed-in user (its value shown once). Signed in to the portal: the user pool's ID token as `Authorization: Bearer`, and the permission `settings:api` (else 403). Answers the JSON itself, no envelope; refusals are the API's envelope.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment). (the signed-in user's API user's limit)
         */
        post: operations["portalKeysCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke one of the user’s keys (it stops working within 10 seconds)
         * @description Revoke one of the user’s keys (it stops working within 10 seconds). Signed in to the portal: the user pool's ID token as `Authorization: Bearer`, and the permission `settings:api` (else 403). Answers the JSON itself, no envelope; refusals are the API's envelope.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment). (the signed-in user's API user's limit)
         */
        post: operations["portalKeysRevoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a new key for the user with the old one’s name, then revoke the old one
         * @description Create a new key for the user with the old one’s name, then revoke the old one. Signed in to the portal: the user pool's ID token as `Authorization: Bearer`, and the permission `settings:api` (else 403). Answers the JSON itself, no envelope; refusals are the API's envelope.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment). (the signed-in user's API user's limit)
         */
        post: operations["portalKeysRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One key's requests by rate class over 24 hours and 7 days, and its 429s
         * @description One key's requests by rate class over 24 hours and 7 days, and its 429s. Signed in to the portal: the user pool's ID token as `Authorization: Bearer`, and the permission `settings:api` (else 403). Answers the JSON itself, no envelope; refusals are the API's envelope.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment). (the signed-in user's API user's limit)
         */
        get: operations["portalUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One key's last 100 requests: time, endpoint, status, error code, latency
         * @description One key's last 100 requests: time, endpoint, status, error code, latency. Signed in to the portal: the user pool's ID token as `Authorization: Bearer`, and the permission `settings:api` (else 403). Answers the JSON itself, no envelope; refusals are the API's envelope.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment). (the signed-in user's API user's limit)
         */
        get: operations["portalRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook subscriptions of the user's channels and how their deliveries fare; never a secret
         * @description The webhook subscriptions of the user's channels and how their deliveries fare; never a secret. Signed in to the portal: the user pool's ID token as `Authorization: Bearer`, and the permission `settings:api` (else 403). Answers the JSON itself, no envelope; refusals are the API's envelope.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment). (the signed-in user's API user's limit)
         */
        get: operations["portalWebhooksList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One subscription’s deliveries, newest first, with their attempts and errors
         * @description One subscription’s deliveries, newest first, with their attempts and errors. Signed in to the portal: the user pool's ID token as `Authorization: Bearer`, and the permission `settings:api` (else 403). Answers the JSON itself, no envelope; refusals are the API's envelope.
         *
         *     Rate limit class `api_read`: 120 requests per minute per API user by default (configurable per deployment). (the signed-in user's API user's limit)
         */
        get: operations["portalWebhooksDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver an event to one of the channel’s subscriptions again (same webhook-id)
         * @description Deliver an event to one of the channel’s subscriptions again (same webhook-id). Signed in to the portal: the user pool's ID token as `Authorization: Bearer`, and the permission `settings:api` (else 403). Answers the JSON itself, no envelope; refusals are the API's envelope.
         *
         *     Rate limit class `api_write`: 300 requests per minute per API user by default (configurable per deployment). (the signed-in user's API user's limit)
         */
        post: operations["portalWebhooksRedeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "message.received": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * message.received
         * @description A contact wrote to the channel (once per inbound message).
         *
         *     POSTed to every active subscription (webhooks/manage) whose `events` take `message.received`, signed by the Standard Webhooks headers; the same body is in events/list. Any 2xx within 10 seconds acknowledges it; anything else is retried by the schedule in docs/EVENTS.md.
         */
        post: operations["messageReceivedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * message.status
         * @description An outbound message moved forward: sent, delivered, read or failed.
         *
         *     POSTed to every active subscription (webhooks/manage) whose `events` take `message.status`, signed by the Standard Webhooks headers; the same body is in events/list. Any 2xx within 10 seconds acknowledges it; anything else is retried by the schedule in docs/EVENTS.md.
         */
        post: operations["messageStatusEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "automation.execution.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * automation.execution.completed
         * @description An automation ran to its end for a contact.
         *
         *     POSTed to every active subscription (webhooks/manage) whose `events` take `automation.execution.completed`, signed by the Standard Webhooks headers; the same body is in events/list. Any 2xx within 10 seconds acknowledges it; anything else is retried by the schedule in docs/EVENTS.md.
         */
        post: operations["automationExecutionCompletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "automation.execution.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * automation.execution.failed
         * @description An automation stopped at a step that failed.
         *
         *     POSTed to every active subscription (webhooks/manage) whose `events` take `automation.execution.failed`, signed by the Standard Webhooks headers; the same body is in events/list. Any 2xx within 10 seconds acknowledges it; anything else is retried by the schedule in docs/EVENTS.md.
         */
        post: operations["automationExecutionFailedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contact.opted_out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * contact.opted_out
         * @description A contact opted out of the channel (a STOP keyword, contacts/manage or contacts/import).
         *
         *     POSTed to every active subscription (webhooks/manage) whose `events` take `contact.opted_out`, signed by the Standard Webhooks headers; the same body is in events/list. Any 2xx within 10 seconds acknowledges it; anything else is retried by the schedule in docs/EVENTS.md.
         */
        post: operations["contactOptedOutEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contact.opted_in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * contact.opted_in
         * @description A contact opted back in (a START keyword, contacts/manage or contacts/import).
         *
         *     POSTed to every active subscription (webhooks/manage) whose `events` take `contact.opted_in`, signed by the Standard Webhooks headers; the same body is in events/list. Any 2xx within 10 seconds acknowledges it; anything else is retried by the schedule in docs/EVENTS.md.
         */
        post: operations["contactOptedInEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        ChannelsListParams: Record<string, never>;
        ChannelsListResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Channel"][];
            /**
             * @description Human-readable summary
             * @example Found 2 channel(s)
             */
            message?: string;
        };
        ContactsManageParams: {
            /**
             * @description Phone number with country code, in any common notation (`+1 (415) 555-0123`, `14155550123`, `0044…`); stored as digits with country code. Matches the contact.
             * @example +14155550123
             */
            phoneNumber: string;
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description Display name of the contact.
             * @example Bo Example
             */
            name?: string;
            /**
             * Format: email
             * @description Email address (stored lower-case).
             * @example bo@example.com
             */
            email?: string;
            /**
             * Format: uri
             * @description http or https URL of a profile picture.
             * @example https://example.com/bo.jpg
             */
            profilePictureUrl?: string;
            /**
             * @description Custom field values by field name: a JSON object, or (GET) the JSON object as text, or `key:value` pairs separated by commas (a value that contains a comma needs the JSON form). Names must be defined with custom-fields/manage; values must fit the field type; a null or empty value clears the field. Keys not named keep their values.
             * @example {
             *       "city": "Oakland",
             *       "tier": "gold"
             *     }
             */
            customFieldsData?: {
                [key: string]: string | number | boolean | null;
            };
            /**
             * @description Names of labels of the channel (matched case-insensitively), as a JSON array or (GET) comma-separated; a GET value that contains a comma needs the JSON array as text, e.g. `["Smith, Jr."]`. Replaces the contact’s labels; unknown names are a 400.
             * @example [
             *       "VIP",
             *       "new"
             *     ]
             */
            labelNames?: string[];
            /**
             * @description Opt-out status: `opted_out` stops every send to the contact (403 `contact_opted_out`), `active` allows them again. Each change is recorded (when, by which API user).
             * @example active
             * @enum {string}
             */
            status?: "active" | "opted_out";
        };
        ContactsManageResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["ContactResult"];
            /**
             * @description Human-readable summary
             * @example Contact created
             */
            message?: string;
        };
        ContactsImportParams: {
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description The contacts: 1 to 1,000 objects, each with the parameters of contacts/manage (`phoneNumber` required; a row’s `channelId` is ignored; any other key refuses the whole call with 400 `unknown_parameter` naming it, e.g. `contacts[2].labels`, and nothing is written). Each row is applied as contacts/manage would apply it; a refused row is reported by its index and does not stop the others. Rows naming the same phone number are applied as one contact: each field’s last value wins (custom fields key by key), and at most one status change (one opt-out event) a contact. Importing the same rows again creates nothing. The body may be up to 1 MiB. In a query string: the JSON text of the array.
             * @example [
             *       {
             *         "phoneNumber": "+14155550123",
             *         "name": "Bo Example",
             *         "email": "bo@example.com",
             *         "labelNames": [
             *           "VIP"
             *         ],
             *         "customFieldsData": {
             *           "city": "Oakland"
             *         }
             *       },
             *       {
             *         "phoneNumber": "+442079460958",
             *         "name": "Ann Example"
             *       }
             *     ]
             */
            contacts: {
                phoneNumber: string;
                name?: string;
                email?: string;
                profilePictureUrl?: string;
                customFieldsData?: {
                    [key: string]: string | number | boolean | null;
                };
                labelNames?: string[];
                /** @enum {string} */
                status?: "active" | "opted_out";
                /** @description Ignored: the call’s channelId applies. */
                channelId?: string;
            }[];
        };
        ContactsImportResponse: {
            /** @constant */
            success: true;
            data: {
                /**
                 * @description Contacts this call created
                 * @example 998
                 */
                created: number;
                /**
                 * @description Existing contacts this call changed
                 * @example 1
                 */
                updated: number;
                /**
                 * @description Rows of existing contacts that changed nothing (a re-run of the same rows counts all its rows here)
                 * @example 0
                 */
                unchanged: number;
                /**
                 * @description Rows folded into a later row naming the same phone number: applied with it as one contact (each field’s last value wins)
                 * @example 0
                 */
                merged: number;
                /**
                 * @description Rows not applied; each is in `errors`
                 * @example 1
                 */
                failed: number;
                /** @description The rows not applied, by index */
                errors: {
                    /**
                     * @description Position of the row in `contacts` (from 0)
                     * @example 7
                     */
                    index: number;
                    /**
                     * @description The row’s phone number (normalized when it could be), or null
                     * @example 14155550123
                     */
                    phoneNumber: string | null;
                    /**
                     * @description The error code contacts/manage would answer for this row
                     * @example invalid_parameter
                     */
                    error: string;
                    /**
                     * @description What is wrong with the row
                     * @example Unknown labels: Nope. Create them with labels/manage first.
                     */
                    message: string;
                    /**
                     * @description The row’s parameter at fault
                     * @example labelNames
                     */
                    parameter?: string;
                }[];
                /**
                 * @description Indexes of the rows the call had no time left to apply (wholly or their `status`), in request order; empty when the call is complete. Send the same call again (or these rows) to finish them: what was applied is not applied twice.
                 * @example []
                 */
                pending: number[];
            };
            /**
             * @description Human-readable summary
             * @example Imported 1000 row(s): 998 created, 1 updated, 1 failed
             */
            message?: string;
        };
        ContactsListParams: {
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description Page number, from 1.
             * @default 1
             * @example 1
             */
            page?: number;
            /**
             * @description Page size. Values above 200 are clamped to 200 (`pagination.limit` then says 200).
             * @default 50
             * @example 20
             */
            limit?: number;
            /**
             * @description Case-insensitive substring of the name, or digits of the phone number (a `+` and spaces are ignored). Empty means no filter.
             * @example example
             */
            search?: string;
            /**
             * @description Only contacts with this opt-out status (`active` or `opted_out`).
             * @example opted_out
             * @enum {string}
             */
            status?: "active" | "opted_out";
            /**
             * @description Opaque cursor from a previous answer's `nextCursor` (bound to the channel and the query).
             * @example eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8
             */
            cursor?: string;
        };
        ContactsListResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["ContactSummary"][];
            /** @description Human-readable summary */
            message?: string;
            pagination: components["schemas"]["Pagination"];
        };
        ContactsDeleteParams: {
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description Phone number of the contact to erase, with country code (or pass contactId).
             * @example +14155550123
             */
            phoneNumber?: string;
            /**
             * @description Id of the contact (`data.id` of contacts/manage); alternative to phoneNumber. Unknown, or of another channel: 404.
             * @example ct_01jhx3k8m0
             */
            contactId?: string;
        } | unknown | unknown;
        ContactsDeleteResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["ContactDeleted"];
            /**
             * @description Human-readable summary
             * @example Contact erased: its data, conversation and message contents are gone
             */
            message?: string;
        };
        LabelsManageParams: {
            /**
             * @description Label name: the match key (case-insensitive); the case first given is kept.
             * @example Customer
             */
            name: string;
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description Free text; an empty string clears it.
             * @example Paying customer
             */
            description?: string;
            /**
             * @description Hex color: `#` and six hex digits (stored upper-case).
             * @example #1E88E5
             */
            color?: string;
            /**
             * @description Sort order in lists (ascending).
             * @example 3
             */
            displayOrder?: number;
        };
        LabelsManageResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["LabelResult"];
            /**
             * @description Human-readable summary
             * @example Label created
             */
            message?: string;
        };
        LabelsListParams: {
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
        };
        LabelsListResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Label"][];
            /**
             * @description Human-readable summary
             * @example Found 2 label(s)
             */
            message?: string;
        };
        CustomFieldsManageParams: {
            /**
             * @description Field name: the match key (case-insensitive) and the key in customFieldsData.
             * @example plan
             */
            name: string;
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description Value type of the field; `dropdown` needs options. Default on create: text.
             * @example dropdown
             * @enum {string}
             */
            type?: "text" | "number" | "email" | "phone" | "date" | "label" | "dropdown";
            /**
             * @description Whether contacts/manage must set this field when it creates a contact (`true`/`false`).
             * @example false
             */
            isRequired?: boolean;
            /**
             * @description Allowed values of a dropdown field, as a JSON array or (GET) comma-separated; a GET value that contains a comma needs the JSON array as text, e.g. `["S, M","L"]`.
             * @example [
             *       "free",
             *       "pro"
             *     ]
             */
            options?: string[];
        };
        CustomFieldsManageResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["CustomFieldResult"];
            /**
             * @description Human-readable summary
             * @example Custom field created
             */
            message?: string;
        };
        CustomFieldsListParams: {
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
        };
        CustomFieldsListResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["CustomField"][];
            /**
             * @description Human-readable summary
             * @example Found 2 custom field(s)
             */
            message?: string;
        };
        ChatTemplatesListParams: {
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
        };
        ChatTemplatesListResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Template"][];
            /**
             * @description Human-readable summary
             * @example Found 3 approved template(s)
             */
            message?: string;
        };
        ChatTemplatesSendParams: {
            /**
             * @description Recipient phone number with country code, in any common notation.
             * @example +14155550123
             */
            to: string;
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description Exact name of an APPROVED template of the channel (see chat/templates/list).
             * @example order_update
             */
            templateName: string;
            /**
             * @description Template language, e.g. `en` or `en_US`. When omitted: the stored template’s language (falls back to `en`).
             * @example en
             */
            languageCode?: string;
            /**
             * @description Body variables in order ({{1}}, {{2}}, …): a JSON array or (GET) a comma-separated string; a GET value that contains a comma needs the JSON array as text, e.g. `["Smith, Jr.","A-1001"]` (or `body1`, `body2`, …). Alternatively pass `body1`, `body2`, … (not both). A value may not contain a newline, a tab or more than four consecutive spaces (the chat network refuses them).
             * @example [
             *       "Bo",
             *       "A-1001"
             *     ]
             */
            variables?: string[] | string;
            /**
             * @description Text for the header variable of a TEXT header; no newline, tab or more than four consecutive spaces.
             * @example Spring sale
             */
            header?: string;
            /**
             * Format: uri
             * @description Header image URL (http or https) for an IMAGE header.
             * @example https://example.com/promo.jpg
             */
            image?: string;
            /**
             * Format: uri
             * @description Header video URL (http or https) for a VIDEO header.
             * @example https://example.com/promo.mp4
             */
            video?: string;
            /**
             * Format: uri
             * @description Header document URL (http or https) for a DOCUMENT header.
             * @example https://example.com/terms.pdf
             */
            document?: string;
            /**
             * Format: uri
             * @description Header media URL, used with `mediaType` (alternative to image, video, document).
             * @example https://example.com/promo.jpg
             */
            mediaUrl?: string;
            /**
             * @description Type of `mediaUrl`.
             * @example image
             * @enum {string}
             */
            mediaType?: "image" | "video" | "document";
            /**
             * @description Your reference for this send, an idempotency key per channel, recipient and 24 hours: the same reference with the same parameters answers the first send again (nothing is sent twice); with other parameters it is a 409. References starting with `automation:` are reserved for the automations’ own sends (400).
             * @example order-1234
             */
            apiReference?: string;
        } & {
            [key: `body${number}`]: string;
        };
        ChatTemplatesSendResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["TemplateSendResult"];
            /**
             * @description Human-readable summary
             * @example Template message accepted by the chat network
             */
            message?: string;
        };
        ChatMessageSendParams: {
            /**
             * @description Recipient phone number with country code, in any common notation.
             * @example +14155550123
             */
            to: string;
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description Message type; media types (image, video, document, audio, sticker) need `url` or `mediaId`, the others the parameter of their name (`interactive`, `location`, `reaction`).
             * @default text
             * @example text
             * @enum {string}
             */
            type?: "text" | "image" | "video" | "document" | "audio" | "sticker" | "interactive" | "location" | "reaction";
            /**
             * @description Message text (required when type is text).
             * @example Hello from the Workspace API
             */
            body?: string;
            /**
             * Format: uri
             * @description Media URL (http or https): a media type needs this or `mediaId`, not both.
             * @example https://example.com/photo.jpg
             */
            url?: string;
            /**
             * @description The media id chat/media/upload answered (uploaded to this channel): a media type needs this or `url`, not both.
             * @example 1037543291543636
             */
            mediaId?: string;
            /**
             * @description Caption of a media message.
             * @example Your receipt
             */
            caption?: string;
            /**
             * @description File name shown for a document message.
             * @example receipt.pdf
             */
            filename?: string;
            /**
             * @description The Cloud API `interactive` object (type `interactive`): an optional `header` (text ≤ 60 characters, or image/video/document as `{link}` or `{id}` from chat/media/upload; a list takes only text); `button` (1–3 reply buttons, titles ≤ 20 characters, ids and titles unique), `list` (a button ≤ 20 characters opening up to 10 sections of up to 10 rows in all; row title ≤ 24, description ≤ 72) or `cta_url` (one URL button, display text ≤ 20). Body text ≤ 1024 characters (list: 4096), header text and footer ≤ 60.
             * @example {
             *       "type": "button",
             *       "body": {
             *         "text": "Is your parcel damaged?"
             *       },
             *       "action": {
             *         "buttons": [
             *           {
             *             "type": "reply",
             *             "reply": {
             *               "id": "refund",
             *               "title": "Refund"
             *             }
             *           },
             *           {
             *             "type": "reply",
             *             "reply": {
             *               "id": "replace",
             *               "title": "Replacement"
             *             }
             *           }
             *         ]
             *       }
             *     }
             */
            interactive?: {
                /** @constant */
                type: "button";
                header?: {
                    /** @constant */
                    type: "text";
                    text: string;
                } | {
                    /** @constant */
                    type: "image";
                    image: {
                        /** Format: uri */
                        link: string;
                    } | {
                        id: string;
                    };
                } | {
                    /** @constant */
                    type: "video";
                    video: {
                        /** Format: uri */
                        link: string;
                    } | {
                        id: string;
                    };
                } | {
                    /** @constant */
                    type: "document";
                    document: {
                        /** Format: uri */
                        link: string;
                    } | {
                        id: string;
                    };
                };
                body: {
                    text: string;
                };
                footer?: {
                    text: string;
                };
                action: {
                    buttons: {
                        /** @constant */
                        type: "reply";
                        reply: {
                            id: string;
                            title: string;
                        };
                    }[];
                };
            } | {
                /** @constant */
                type: "list";
                header?: {
                    /** @constant */
                    type: "text";
                    text: string;
                };
                body: {
                    text: string;
                };
                footer?: {
                    text: string;
                };
                action: {
                    button: string;
                    sections: {
                        title?: string;
                        rows: {
                            id: string;
                            title: string;
                            description?: string;
                        }[];
                    }[];
                };
            } | {
                /** @constant */
                type: "cta_url";
                header?: {
                    /** @constant */
                    type: "text";
                    text: string;
                } | {
                    /** @constant */
                    type: "image";
                    image: {
                        /** Format: uri */
                        link: string;
                    } | {
                        id: string;
                    };
                } | {
                    /** @constant */
                    type: "video";
                    video: {
                        /** Format: uri */
                        link: string;
                    } | {
                        id: string;
                    };
                } | {
                    /** @constant */
                    type: "document";
                    document: {
                        /** Format: uri */
                        link: string;
                    } | {
                        id: string;
                    };
                };
                body: {
                    text: string;
                };
                footer?: {
                    text: string;
                };
                action: {
                    /** @constant */
                    name: "cta_url";
                    parameters: {
                        display_text: string;
                        /** Format: uri */
                        url: string;
                    };
                };
            };
            /**
             * @description A place (type `location`): `latitude`, `longitude`, optional `name` and `address`.
             * @example {
             *       "latitude": 52.52,
             *       "longitude": 13.405,
             *       "name": "Pickup point",
             *       "address": "Alexanderplatz 1, Berlin"
             *     }
             */
            location?: {
                latitude: number;
                longitude: number;
                name?: string;
                address?: string;
            };
            /**
             * @description An emoji on a message (type `reaction`): `messageId` (a chatmid of this contact in this channel) and `emoji` (one emoji; empty removes the reaction).
             * @example {
             *       "messageId": "wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0",
             *       "emoji": "👍"
             *     }
             */
            reaction?: {
                /**
                 * @description The chatmid of the message reacted to (of this contact, in this channel).
                 * @example wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0
                 */
                messageId: string;
                emoji: string;
            };
            /**
             * @description Quote a message: the chatmid of a message of this contact in this channel (inbound or outbound). The chat network shows it above the new one.
             * @example wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0
             */
            replyTo?: string;
            /**
             * @description Your reference for this send, an idempotency key per channel, recipient and 24 hours: the same reference with the same parameters answers the first send again (nothing is sent twice); with other parameters it is a 409. References starting with `automation:` are reserved for the automations’ own sends (400).
             * @example order-1234
             */
            apiReference?: string;
        };
        ChatMessageSendResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["MessageSendResult"];
            /**
             * @description Human-readable summary
             * @example Message accepted by the chat network
             */
            message?: string;
        };
        ChatMessageStatusParams: {
            /**
             * @description The chat network message id a send answered (`data.chatmid`).
             * @example wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0
             */
            chatmid: string;
        };
        ChatMessageStatusResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["MessageStatus"];
            /** @description Human-readable summary */
            message?: string;
        };
        ChatMessageReadParams: {
            /**
             * @description The chatmid of an inbound message (message.received, chat/messages/list).
             * @example wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0
             */
            chatmid: string;
            /**
             * @description Also show the contact the typing indicator, until the next message is sent (at most 25 seconds).
             * @default false
             * @example true
             */
            typingIndicator?: boolean;
        };
        ChatMessageReadResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["MessageReadResult"];
            /**
             * @description Human-readable summary
             * @example Message marked read
             */
            message?: string;
        };
        ChatMessagesListParams: {
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description Phone number of the contact whose messages to list, with country code (or pass contactId).
             * @example +14155550123
             */
            phoneNumber?: string;
            /**
             * @description Id of the contact (`data.id` of contacts/manage); alternative to phoneNumber. Unknown, or of another channel: 404.
             * @example ct_01jhx3k8m0
             */
            contactId?: string;
            /**
             * @description Page size, 1 to 100.
             * @default 50
             * @example 20
             */
            limit?: number;
            /**
             * @description Opaque cursor from a previous answer's `nextCursor` (bound to the channel and the query).
             * @example eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8
             */
            cursor?: string;
        } | unknown | unknown;
        ChatMessagesListResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["HistoryMessage"][];
            /**
             * @description Human-readable summary
             * @example Found 2 message(s)
             */
            message?: string;
            /** @description Opaque cursor of the next page (pass it as `cursor`), or null */
            nextCursor: string | null;
        };
        AutomationsListParams: {
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
        };
        AutomationsListResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Automation"][];
            /**
             * @description Human-readable summary
             * @example Found 1 automation(s)
             */
            message?: string;
            /** @description Number of items */
            total: number;
        };
        AutomationsTriggerParams: {
            /**
             * @description Phone number of the contact (created when it does not exist), with country code.
             * @example +14155550123
             */
            phoneNumber: string;
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description Id of the automation to run (or pass automationName).
             * @example au_01jhx3k8m0
             */
            automationId?: string;
            /**
             * @description Name of the automation to run, matched case-insensitively (or pass automationId).
             * @example Welcome Flow
             */
            automationName?: string;
        } | unknown | unknown;
        AutomationsTriggerResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["AutomationExecution"];
            /**
             * @description Human-readable summary
             * @example Automation "Welcome Flow" triggered
             */
            message?: string;
        };
        WebhooksManageParams: {
            /**
             * @description Where to POST deliveries: https:// to a public address (the local stack also takes http://127.0.0.1 and http://localhost). The match key in the channel: the same url updates its subscription.
             * @example https://example.com/hooks/workspace
             */
            url: string;
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description Event types to receive, as a JSON array or comma-separated: message.received, message.status, automation.execution.completed, automation.execution.failed, contact.opted_out, contact.opted_in; `*` or absent for every type.
             * @example [
             *       "message.status",
             *       "message.received"
             *     ]
             */
            events?: string[];
            /**
             * @description Whether deliveries are made (`true`/`false`); true again after a 410 deactivated it.
             * @example true
             */
            isActive?: boolean;
            /**
             * @description Free text; an empty string clears it.
             * @example CRM sync
             */
            description?: string;
            /**
             * @description Issue a new signing secret (shown once); the previous one keeps signing beside it for 24 hours.
             * @example false
             */
            rotateSecret?: boolean;
        };
        WebhooksManageResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["WebhookResult"];
            /**
             * @description Human-readable summary
             * @example Webhook created; store the secret now, it is not shown again
             */
            message?: string;
        };
        WebhooksListParams: {
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
        };
        WebhooksListResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Webhook"][];
            /**
             * @description Human-readable summary
             * @example Found 1 webhook(s)
             */
            message?: string;
        };
        WebhooksDeliveriesParams: {
            /**
             * @description Id of a webhook subscription of the channel (webhooks/list).
             * @example wh_01jhx3k8m0
             */
            webhookId: string;
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description Only deliveries in this state.
             * @example failed
             * @enum {string}
             */
            status?: "pending" | "succeeded" | "failed";
            /**
             * @description Page size (default 50).
             * @example 20
             */
            limit?: number;
            /**
             * @description Opaque cursor from a previous answer's `nextCursor` (bound to the channel and the query).
             * @example eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8
             */
            cursor?: string;
        };
        WebhooksDeliveriesResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["WebhookDelivery"][];
            /** @description Human-readable summary */
            message?: string;
            /** @description Opaque cursor of the next page (pass it as `cursor`), or null */
            nextCursor: string | null;
        };
        WebhooksRedeliverParams: {
            /**
             * @description Id of a webhook subscription of the channel (webhooks/list).
             * @example wh_01jhx3k8m0
             */
            webhookId: string;
            /**
             * @description Id of an event of the channel (events/list, or the `webhook-id` header of a delivery).
             * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
             */
            eventId: string;
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
        };
        WebhooksRedeliverResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Redelivery"];
            /**
             * @description Human-readable summary
             * @example Event queued for delivery again
             */
            message?: string;
        };
        EventsListParams: {
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description Page size (default 50).
             * @example 50
             */
            limit?: number;
            /**
             * @description Opaque cursor from a previous `nextCursor`; absent = the oldest event kept (events are kept at least 7 days).
             * @example eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8
             */
            cursor?: string;
        };
        EventsListResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Event"][];
            /** @description Human-readable summary */
            message?: string;
            /** @description Opaque cursor of the next page (pass it as `cursor`), or null */
            nextCursor: string | null;
        };
        WebhooksDeleteParams: {
            /**
             * @description Id of a webhook subscription of the channel (webhooks/list).
             * @example wh_01jhx3k8m0
             */
            webhookId: string;
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
        };
        WebhooksDeleteResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["DeletedWebhook"];
            /**
             * @description Human-readable summary
             * @example Webhook deleted
             */
            message?: string;
        };
        ChatMediaGetParams: {
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description The media id of an inbound message's `content.mediaId` (image, video, audio, document, sticker).
             * @example 1234567890123456
             */
            mediaId: string;
        };
        ChatMediaGetResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["MediaLink"];
            /** @description Human-readable summary */
            message?: string;
        };
        ChatMediaUploadParams: {
            /**
             * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
             * @example ch_demoacmesupport
             */
            channelId?: string;
            /**
             * @description The file's MIME type, one WhatsApp supports (image/jpeg, image/png, video/mp4, audio/ogg, application/pdf, …).
             * @example image/jpeg
             */
            mimeType: string;
            /**
             * @description The file as standard base64. The whole request may be at most 6 MB (the invocation payload limit), so about 4.7 MB decoded; less where WhatsApp limits the type (stickers 500 KB).
             * @example /9j/4AAQSkZJRgABAQ==
             */
            data: string;
            /**
             * @description The file name the chat network keeps with the media.
             * @example receipt.pdf
             */
            filename?: string;
        };
        ChatMediaUploadResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["MediaUploadResult"];
            /** @description Human-readable summary */
            message?: string;
        };
        Channel: {
            /**
             * @description Channel id; pass it as channelId
             * @example ch_demoacmesupport
             */
            id: string;
            /**
             * @description Display name
             * @example Acme Support
             */
            name: string;
            /**
             * @description Id of the business phone number on the chat network
             * @example 100000000000001
             */
            phoneNumberId: string;
            /**
             * @description Whether the channel is active
             * @example true
             */
            isActive: boolean;
        };
        ContactResult: {
            /**
             * @description Contact id
             * @example ct_01jhx3k8m0
             */
            id: string;
            /**
             * @description Display name, or null
             * @example Bo Example
             */
            name: string | null;
            /**
             * @description Phone number: digits with country code, no plus
             * @example 14155550123
             */
            phone: string;
            /**
             * @description Email address, or null
             * @example bo@example.com
             */
            email: string | null;
            /** @description Labels attached to the contact */
            labels: {
                /**
                 * @description Label id
                 * @example lb_01jhx3k8m0
                 */
                id: string;
                /**
                 * @description Label name (matched case-insensitively)
                 * @example Customer
                 */
                name: string;
                /**
                 * @description Hex color: # and six upper-case hex digits
                 * @example #1E88E5
                 */
                color: string;
            }[];
            /**
             * @description Custom field values by field name
             * @example {
             *       "city": "Oakland",
             *       "tier": "gold"
             *     }
             */
            customFields: {
                [key: string]: string | number;
            };
            /**
             * @description Opt-out status: opted_out after an opt-out keyword (STOP, …) or contacts/manage status; sends to it are refused (403 contact_opted_out)
             * @example active
             * @enum {string}
             */
            status: "active" | "opted_out";
            /**
             * @description Profile picture URL, or null
             * @example https://example.com/bo.jpg
             */
            profilePictureUrl: string | null;
            /**
             * Format: date-time
             * @description When the contact was created (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the contact was last changed (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            updatedAt: string;
            /**
             * @description true when this call created the record, false when it updated one
             * @example true
             */
            created: boolean;
        };
        ContactSummary: {
            /**
             * @description Contact id
             * @example ct_01jhx3k8m0
             */
            id: string;
            /**
             * @description Display name, or null
             * @example Bo Example
             */
            name: string | null;
            /**
             * @description Phone number: digits with country code, no plus
             * @example 14155550123
             */
            phone: string;
            /**
             * @description Email address, or null
             * @example bo@example.com
             */
            email: string | null;
            /** @description Labels attached to the contact */
            labels: {
                /**
                 * @description Label id
                 * @example lb_01jhx3k8m0
                 */
                id: string;
                /**
                 * @description Label name (matched case-insensitively)
                 * @example Customer
                 */
                name: string;
                /**
                 * @description Hex color: # and six upper-case hex digits
                 * @example #1E88E5
                 */
                color: string;
            }[];
            /**
             * @description Custom field values by field name
             * @example {
             *       "city": "Oakland",
             *       "tier": "gold"
             *     }
             */
            customFields: {
                [key: string]: string | number;
            };
            /**
             * @description Opt-out status: opted_out after an opt-out keyword (STOP, …) or contacts/manage status; sends to it are refused (403 contact_opted_out)
             * @example active
             * @enum {string}
             */
            status: "active" | "opted_out";
        };
        Pagination: {
            /**
             * @description This page (from 1); with a `cursor`, the page of `limit` its first item lies on
             * @example 1
             */
            page: number;
            /**
             * @description Page size used (at most 200)
             * @example 50
             */
            limit: number;
            /**
             * @description Number of all matches
             * @example 1
             */
            total: number;
            /**
             * @description Number of pages
             * @example 1
             */
            pages: number;
            /**
             * @description Pass as `cursor` for the page after this one (the same filters); null after the last item. A page whose items would pass 5 MB of answer ends early, and only this cursor continues it exactly (`page` + 1 would skip what it left out).
             * @example eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8
             */
            nextCursor: string | null;
        };
        ContactDeleted: {
            /**
             * @description The erased contact’s id
             * @example ct_01jhx3k8m0
             */
            id: string;
            /**
             * @description Always true
             * @example true
             * @constant
             */
            deleted: true;
        };
        LabelResult: {
            /**
             * @description Label id
             * @example lb_01jhx3k8m0
             */
            id: string;
            /**
             * @description The channel the label belongs to
             * @example ch_demoacmesupport
             */
            channelId: string;
            /**
             * @description Label name (matched case-insensitively)
             * @example Customer
             */
            name: string;
            /**
             * @description Description, or null
             * @example Paying customer
             */
            description: string | null;
            /**
             * @description Hex color: # and six upper-case hex digits
             * @example #1E88E5
             */
            color: string;
            /**
             * @description Sort order
             * @example 3
             */
            displayOrder: number;
            /**
             * @description true when this call created the record, false when it updated one
             * @example true
             */
            created: boolean;
        };
        Label: {
            /**
             * @description Label id
             * @example lb_01jhx3k8m0
             */
            id: string;
            /**
             * @description The channel the label belongs to
             * @example ch_demoacmesupport
             */
            channelId: string;
            /**
             * @description Label name (matched case-insensitively)
             * @example Customer
             */
            name: string;
            /**
             * @description Description, or null
             * @example Paying customer
             */
            description: string | null;
            /**
             * @description Hex color: # and six upper-case hex digits
             * @example #1E88E5
             */
            color: string;
            /**
             * @description Sort order
             * @example 3
             */
            displayOrder: number;
        };
        CustomFieldResult: {
            /**
             * @description Custom field id
             * @example cf_01jhx3k8m0
             */
            id: string;
            /**
             * @description The channel the field belongs to
             * @example ch_demoacmesupport
             */
            channelId: string;
            /**
             * @description Field name (matched case-insensitively); the key in customFieldsData
             * @example plan
             */
            name: string;
            /**
             * @description Value type
             * @example dropdown
             * @enum {string}
             */
            type: "text" | "number" | "email" | "phone" | "date" | "label" | "dropdown";
            /**
             * @description Whether contacts/manage requires it when it creates a contact
             * @example false
             */
            isRequired: boolean;
            /**
             * @description Allowed values of a dropdown field
             * @example [
             *       "free",
             *       "pro"
             *     ]
             */
            options: string[];
            /**
             * @description true when this call created the record, false when it updated one
             * @example true
             */
            created: boolean;
        };
        CustomField: {
            /**
             * @description Custom field id
             * @example cf_01jhx3k8m0
             */
            id: string;
            /**
             * @description The channel the field belongs to
             * @example ch_demoacmesupport
             */
            channelId: string;
            /**
             * @description Field name (matched case-insensitively); the key in customFieldsData
             * @example plan
             */
            name: string;
            /**
             * @description Value type
             * @example dropdown
             * @enum {string}
             */
            type: "text" | "number" | "email" | "phone" | "date" | "label" | "dropdown";
            /**
             * @description Whether contacts/manage requires it when it creates a contact
             * @example false
             */
            isRequired: boolean;
            /**
             * @description Allowed values of a dropdown field
             * @example [
             *       "free",
             *       "pro"
             *     ]
             */
            options: string[];
        };
        Template: {
            /**
             * @description Exact template name
             * @example order_update
             */
            name: string;
            /**
             * @description Language code
             * @example en
             */
            language: string;
            /**
             * @description Template category on the chat network
             * @example UTILITY
             */
            category: string;
            /**
             * @description Review status (only APPROVED templates are listed)
             * @example APPROVED
             */
            status: string;
            /** @description Components (HEADER, BODY, FOOTER, BUTTONS) with the number of variables each needs */
            components: {
                type: string;
                format?: string;
                text?: string;
                variables: number;
            }[];
            /**
             * @description How many body variables a send must fill ({{1}}, {{2}}, …)
             * @example 2
             */
            bodyVariables: number;
            /** @description The header a send must fill: TEXT with its variable count, a media format (pass image, video or document), or null */
            header: ({
                /** @constant */
                format: "TEXT";
                variables: number;
            } | {
                /** @enum {string} */
                format: "IMAGE" | "VIDEO" | "DOCUMENT";
            }) | null;
        };
        TemplateSendResult: {
            /**
             * @description The chat network message id; pass it to chat/message/status
             * @example wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0
             */
            chatmid: string;
            /**
             * @description Delivery status right after the send
             * @example accepted
             */
            status: string;
            /**
             * @description Recipient: digits with country code
             * @example 14155550123
             */
            to: string;
            /**
             * @description Template sent
             * @example order_update
             */
            templateName: string;
            /**
             * @description Language of the template sent
             * @example en
             */
            languageCode: string;
            /**
             * @description The apiReference of the call, or null
             * @example order-1234
             */
            apiReference: string | null;
        };
        MessageSendResult: {
            /**
             * @description The chat network message id; pass it to chat/message/status
             * @example wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0
             */
            chatmid: string;
            /**
             * @description Delivery status right after the send
             * @example accepted
             */
            status: string;
            /**
             * @description Recipient: digits with country code
             * @example 14155550123
             */
            to: string;
            /**
             * @description Message type
             * @example text
             * @enum {string}
             */
            type: "text" | "image" | "video" | "document" | "audio" | "sticker" | "interactive" | "location" | "reaction";
            /**
             * @description The apiReference of the call, or null
             * @example order-1234
             */
            apiReference: string | null;
        };
        MessageStatus: {
            /**
             * @description The chat network message id; pass it to chat/message/status
             * @example wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0
             */
            chatmid: string;
            /**
             * @description accepted → sent → delivered → read, or failed (with error); received for inbound messages
             * @example delivered
             * @enum {string}
             */
            status: "accepted" | "sent" | "delivered" | "read" | "failed" | "received";
            /**
             * @description outbound or inbound
             * @example outbound
             */
            direction: ("outbound" | "inbound") | null;
            /**
             * @description Message type (text, image, video, document, audio, sticker, interactive, location, reaction, template)
             * @example text
             */
            type: string | null;
            /** @description What was sent: {body} for text, {url or mediaId, caption, filename} for media, {templateName, languageCode, bodyVariables, header} for templates */
            content: {
                [key: string]: unknown;
            } | null;
            /** @description When the message was sent or received (ISO 8601, UTC), or null */
            timestamp: string | null;
            /** @description When it was delivered (ISO 8601, UTC), or null */
            deliveredAt: string | null;
            /** @description When it was read (ISO 8601, UTC), or null */
            readAt: string | null;
            /** @description Why the message failed (status failed), or null */
            error: {
                code?: string | number;
                title?: string;
                message: string;
            } | null;
        };
        MessageReadResult: {
            /**
             * @description The inbound message marked read
             * @example wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0
             */
            chatmid: string;
            /**
             * @description Always read: the contact sees the message as read (blue ticks)
             * @example read
             * @constant
             */
            status: "read";
            /**
             * @description Whether the typing indicator was shown (until the next message is sent, at most 25 seconds)
             * @example true
             */
            typingIndicator: boolean;
            /**
             * Format: date-time
             * @description When the message was first marked read (marking again keeps it) (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            readAt: string;
        };
        HistoryMessage: {
            /**
             * @description The chat network message id, or null for a send whose outcome is not known (yet)
             * @example wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0
             */
            chatmid: string | null;
            /**
             * @description outbound (sent by the API or an automation) or inbound (written by the contact)
             * @example inbound
             * @enum {string}
             */
            direction: "outbound" | "inbound";
            /**
             * @description text, image, video, document, audio, sticker, location, contacts, interactive, button, reaction, unsupported (inbound); text, image, video, document, audio, sticker, interactive, location, reaction, template (outbound)
             * @example text
             */
            type: string;
            /**
             * @description The content in the shape of its type (docs/MESSAGING.md, "Inbound message types" and "Richer messages"), with `replyTo` (the chatmid quoted) when the message quotes one; or null once blanked by erasure or past the retention period
             * @example {
             *       "body": "Hi, where is my order?"
             *     }
             */
            content: {
                [key: string]: unknown;
            } | null;
            /**
             * @description received (inbound); accepted → sent → delivered → read, or failed (outbound); pending or unknown while a send’s outcome is not known
             * @example received
             * @enum {string}
             */
            status: "received" | "pending" | "accepted" | "sent" | "delivered" | "read" | "failed" | "unknown";
            /**
             * Format: date-time
             * @description When the message was sent or received (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            timestamp: string;
            /** @description When it was delivered (ISO 8601, UTC), or null */
            deliveredAt: string | null;
            /** @description When it was read (ISO 8601, UTC), or null */
            readAt: string | null;
            /**
             * @description The apiReference of the call, or null
             * @example order-1234
             */
            apiReference: string | null;
            /** @description Why the send failed, or null */
            error: {
                code?: string | number;
                title?: string;
                message: string;
            } | null;
        };
        Automation: {
            /**
             * @description Automation id
             * @example au_01jhx3k8m0
             */
            id: string;
            /**
             * @description Name (matched case-insensitively as automationName)
             * @example Welcome Flow
             */
            name: string;
            /**
             * @description Only active automations can be triggered
             * @example active
             * @enum {string}
             */
            status: "active" | "inactive";
            /**
             * @description Number of executions triggered
             * @example 3
             */
            executionCount: number;
        };
        AutomationExecution: {
            /**
             * @description Execution id
             * @example ex_01jhx3k8m0
             */
            executionId: string;
            /**
             * @description The automation triggered
             * @example au_01jhx3k8m0
             */
            automationId: string;
            /**
             * @description Its name
             * @example Welcome Flow
             */
            automationName: string;
            /**
             * @description The contact created or found
             * @example ct_01jhx3k8m0
             */
            contactId: string;
            /**
             * @description The conversation created or found
             * @example cv_01jhx3k8m0
             */
            conversationId: string;
            /**
             * @description triggered: the steps run in the background
             * @example triggered
             * @constant
             */
            status: "triggered";
        };
        WebhookResult: {
            /**
             * @description Webhook subscription id
             * @example wh_01jhx3k8m0
             */
            id: string;
            /**
             * @description The channel whose events it receives
             * @example ch_demoacmesupport
             */
            channelId: string;
            /**
             * @description Where deliveries are POSTed (the match key in the channel)
             * @example https://example.com/hooks/workspace
             */
            url: string;
            /**
             * @description Event types it receives; `*` for every type
             * @example [
             *       "message.status",
             *       "message.received"
             *     ]
             */
            events: string[];
            /**
             * @description Whether deliveries are made
             * @example true
             */
            isActive: boolean;
            /**
             * @description Free text, or null
             * @example CRM sync
             */
            description: string | null;
            /**
             * @description true when this call created the record, false when it updated one
             * @example true
             */
            created: boolean;
            /**
             * @description The signing secret (Standard Webhooks `whsec_…`): only when created or rotated, never shown again
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret?: string;
        };
        Webhook: {
            /**
             * @description Webhook subscription id
             * @example wh_01jhx3k8m0
             */
            id: string;
            /**
             * @description The channel whose events it receives
             * @example ch_demoacmesupport
             */
            channelId: string;
            /**
             * @description Where deliveries are POSTed (the match key in the channel)
             * @example https://example.com/hooks/workspace
             */
            url: string;
            /**
             * @description Event types it receives; `*` for every type
             * @example [
             *       "message.status",
             *       "message.received"
             *     ]
             */
            events: string[];
            /**
             * @description Whether deliveries are made
             * @example true
             */
            isActive: boolean;
            /**
             * @description Free text, or null
             * @example CRM sync
             */
            description: string | null;
            /**
             * @description `gone` when a 410 answer deactivated it, or null
             * @example null
             */
            disabledReason: string | null;
            /** @description The last successful delivery (a 2xx answer; failed attempts do not move it) (ISO 8601, UTC), or null */
            lastDeliveryAt: string | null;
            /** @description The last delivery attempt, whatever its outcome (its answer is lastStatusCode) (ISO 8601, UTC), or null */
            lastAttemptAt: string | null;
            /**
             * @description HTTP status of the last attempt, or null (no answer)
             * @example 200
             */
            lastStatusCode: number | null;
            /** @description Since when the receiver has been failing: the first failed attempt since the last success, or null. While set, new events wait for the retry schedule instead of an attempt each (ISO 8601, UTC), or null */
            failingSince: string | null;
            /**
             * @description The API user who created it, or null (created before it was recorded)
             * @example usr_01jhx3k8m0
             */
            createdBy: string | null;
            /**
             * @description The API user who issued its current secret (the creator until a rotation), or null
             * @example usr_01jhx3k8m0
             */
            rotatedBy: string | null;
        };
        WebhookDelivery: {
            /**
             * @description The event (also the `webhook-id` header)
             * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
             */
            eventId: string;
            /**
             * @description Event type
             * @example message.status
             */
            type: string;
            /**
             * @description pending until a 2xx or the last retry
             * @example succeeded
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
            /**
             * @description Attempts made
             * @example 1
             */
            attempts: number;
            /** @description The last attempt (ISO 8601, UTC), or null */
            lastAttemptAt: string | null;
            /**
             * @description HTTP status of the last attempt, or null (no answer)
             * @example 200
             */
            lastStatusCode: number | null;
            /**
             * @description Why the last attempt failed, or null
             * @example null
             */
            lastError: string | null;
            /** @description The next retry (ISO 8601, UTC), or null */
            nextAttemptAt: string | null;
        };
        Redelivery: {
            /**
             * @description The subscription
             * @example wh_01jhx3k8m0
             */
            webhookId: string;
            /**
             * @description The event
             * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
             */
            eventId: string;
            /**
             * @description Queued for delivery
             * @example pending
             * @constant
             */
            status: "pending";
        };
        Event: components["schemas"]["MessageReceivedEvent"] | components["schemas"]["MessageStatusEvent"] | components["schemas"]["AutomationExecutionCompletedEvent"] | components["schemas"]["AutomationExecutionFailedEvent"] | components["schemas"]["ContactOptedOutEvent"] | components["schemas"]["ContactOptedInEvent"];
        MessageReceivedEvent: {
            /**
             * @description Event id (the `webhook-id` header of every attempt)
             * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
             */
            id: string;
            /**
             * @description Event type
             * @example message.received
             * @constant
             */
            type: "message.received";
            /**
             * Format: date-time
             * @description When the change happened (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            timestamp: string;
            data: components["schemas"]["MessageReceivedEventData"];
        };
        /** @description A contact wrote to the channel (once per inbound message). */
        MessageReceivedEventData: {
            /**
             * @description The channel the event happened in
             * @example ch_demoacmesupport
             */
            channelId: string;
            /**
             * @description The chat network's message id
             * @example wamid.HBgLMzUxOTEyMzQ1Njc4FQIAEhgg
             */
            chatmid: string;
            /**
             * @description The conversation (chat/messages/list)
             * @example cv_01jhx3k8m0
             */
            conversationId: string;
            /** @description The contact who wrote (created on its first message) */
            contact: {
                /**
                 * @description Contact id
                 * @example ct_01jhx3k8m0
                 */
                id: string;
                /**
                 * @description Phone number (digits with country code)
                 * @example 351912345678
                 */
                phone: string;
                /**
                 * @description Name, or null
                 * @example Dee Customer
                 */
                name: string | null;
            };
            /**
             * @description Message type: text, image, video, document, audio, sticker, location, contacts, interactive, button, reaction or unsupported
             * @example text
             */
            type: string;
            /** @description What the message carried; its fields depend on `type` (a type this API does not know is `unsupported` with the network's `rawType`); null once the content retention period (`MESSAGE_CONTENT_RETENTION_DAYS`) has passed */
            content: components["schemas"]["InboundMessageContent"] | null;
            /**
             * Format: date-time
             * @description When the message was sent (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            timestamp: string;
        };
        /** @description What the message carried; its fields depend on `type` (a type this API does not know is `unsupported` with the network's `rawType`) */
        InboundMessageContent: {
            /**
             * @description text: the text as written
             * @example Hello
             */
            body: string;
        } | {
            /**
             * @description image, video, document, audio, sticker: the media id (chat/media/get)
             * @example 1037543291543636
             */
            mediaId?: string;
            /**
             * @description The media type
             * @example image/jpeg
             */
            mimeType?: string;
            /**
             * @description The caption
             * @example The broken part
             */
            caption?: string;
            /**
             * @description document: the file name
             * @example invoice.pdf
             */
            filename?: string;
            /**
             * @description The media's SHA-256 as the chat network gave it
             * @example IqWUvUB9QXqFBkyiYmDQ3xgWcYnmgR4ncn0BN+n4GmU=
             */
            sha256?: string;
            /**
             * @description audio: a voice note
             * @example true
             */
            voice?: boolean;
            /**
             * @description sticker: animated
             * @example false
             */
            animated?: boolean;
        } | {
            /**
             * @description location: latitude
             * @example 38.72
             */
            latitude?: number;
            /**
             * @description location: longitude
             * @example -9.14
             */
            longitude?: number;
            /**
             * @description location: the place's name
             * @example Lisbon office
             */
            name?: string;
            /**
             * @description location: the address
             * @example Av. da Liberdade 1
             */
            address?: string;
            /**
             * @description location: a link
             * @example https://example.com/place
             */
            url?: string;
        } | {
            /**
             * @description contacts: the shared contact cards (at most 20)
             * @example []
             */
            contacts: {
                /**
                 * @description contacts: the shared contact's name
                 * @example Dee Customer
                 */
                name?: string;
                /**
                 * @description Phone numbers
                 * @example []
                 */
                phones: {
                    /**
                     * @description A phone number
                     * @example +351 912 345 678
                     */
                    phone: string;
                    /**
                     * @description Its kind
                     * @example CELL
                     */
                    type?: string;
                    /**
                     * @description Its WhatsApp id
                     * @example 351912345678
                     */
                    waId?: string;
                }[];
                /**
                 * @description Email addresses
                 * @example []
                 */
                emails: {
                    /**
                     * @description An email address
                     * @example dee@example.com
                     */
                    email: string;
                    /**
                     * @description Its kind
                     * @example WORK
                     */
                    type?: string;
                }[];
                /**
                 * @description The company
                 * @example Example Ltd
                 */
                organization?: string;
            }[];
        } | {
            /**
             * @description interactive: which kind of reply
             * @example button_reply
             * @enum {string}
             */
            replyType: "button_reply" | "list_reply";
            /**
             * @description The id of the chosen button or row
             * @example opt_yes
             */
            id?: string;
            /**
             * @description Its title
             * @example Yes
             */
            title?: string;
            /**
             * @description A list row's description
             * @example Confirm the booking
             */
            description?: string;
        } | {
            /**
             * @description button: the quick-reply button's text
             * @example Stop promotions
             */
            text?: string;
            /**
             * @description Its payload
             * @example STOP_PROMOS
             */
            payload?: string;
        } | {
            /**
             * @description reaction: the chatmid reacted to
             * @example wamid.HBgLMzUxOTEyMzQ1Njc4FQIAEhgg
             */
            messageId: string | null;
            /**
             * @description The emoji; empty when an earlier reaction was removed
             * @example 👍
             */
            emoji: string;
        } | {
            /**
             * @description unsupported: the chat network's type
             * @example order
             */
            rawType: string;
            /**
             * @description true when the content was too large to keep
             * @example true
             */
            tooLarge?: boolean;
        };
        MessageStatusEvent: {
            /**
             * @description Event id (the `webhook-id` header of every attempt)
             * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
             */
            id: string;
            /**
             * @description Event type
             * @example message.status
             * @constant
             */
            type: "message.status";
            /**
             * Format: date-time
             * @description When the change happened (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            timestamp: string;
            data: components["schemas"]["MessageStatusEventData"];
        };
        /** @description An outbound message moved forward: sent, delivered, read or failed. */
        MessageStatusEventData: {
            /**
             * @description The channel the event happened in
             * @example ch_demoacmesupport
             */
            channelId: string;
            /**
             * @description The chat network's message id (chat/message/send's answer)
             * @example wamid.HBgLMzUxOTEyMzQ1Njc4FQIAEhgg
             */
            chatmid: string;
            /**
             * @description The new status (only forward changes are announced)
             * @example delivered
             * @enum {string}
             */
            status: "sent" | "delivered" | "read" | "failed";
            /**
             * @description Why the message failed (status failed), or null
             * @example null
             */
            error: {
                /**
                 * @description The chat network's error code
                 * @example 131026
                 */
                code?: number;
                /**
                 * @description Its title
                 * @example Message undeliverable
                 */
                title: string;
                /**
                 * @description What went wrong
                 * @example Message undeliverable
                 */
                message: string;
            } | null;
            /**
             * @description The send's apiReference, or null
             * @example order-1001
             */
            apiReference: string | null;
            /**
             * @description The recipient (digits with country code), or null when not known yet
             * @example 351912345678
             */
            to: string | null;
            /**
             * Format: date-time
             * @description When the chat network reported the status (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            timestamp: string;
        };
        AutomationExecutionCompletedEvent: {
            /**
             * @description Event id (the `webhook-id` header of every attempt)
             * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
             */
            id: string;
            /**
             * @description Event type
             * @example automation.execution.completed
             * @constant
             */
            type: "automation.execution.completed";
            /**
             * Format: date-time
             * @description When the change happened (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            timestamp: string;
            data: components["schemas"]["AutomationExecutionCompletedEventData"];
        };
        /** @description An automation ran to its end for a contact. */
        AutomationExecutionCompletedEventData: {
            /**
             * @description The channel the event happened in
             * @example ch_demoacmesupport
             */
            channelId: string;
            /**
             * @description The execution
             * @example ex_01jhx3k8m0
             */
            executionId: string;
            /**
             * @description The automation
             * @example au_01jhx3k8m0
             */
            automationId: string;
            /**
             * @description The automation's name
             * @example Welcome
             */
            automationName: string;
            /**
             * @description The contact it ran for
             * @example ct_01jhx3k8m0
             */
            contactId: string;
            /**
             * @description completed
             * @example completed
             * @constant
             */
            status: "completed";
        };
        AutomationExecutionFailedEvent: {
            /**
             * @description Event id (the `webhook-id` header of every attempt)
             * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
             */
            id: string;
            /**
             * @description Event type
             * @example automation.execution.failed
             * @constant
             */
            type: "automation.execution.failed";
            /**
             * Format: date-time
             * @description When the change happened (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            timestamp: string;
            data: components["schemas"]["AutomationExecutionFailedEventData"];
        };
        /** @description An automation stopped at a step that failed. */
        AutomationExecutionFailedEventData: {
            /**
             * @description The channel the event happened in
             * @example ch_demoacmesupport
             */
            channelId: string;
            /**
             * @description The execution
             * @example ex_01jhx3k8m0
             */
            executionId: string;
            /**
             * @description The automation
             * @example au_01jhx3k8m0
             */
            automationId: string;
            /**
             * @description The automation's name
             * @example Welcome
             */
            automationName: string;
            /**
             * @description The contact it ran for
             * @example ct_01jhx3k8m0
             */
            contactId: string;
            /**
             * @description failed
             * @example failed
             * @constant
             */
            status: "failed";
            /**
             * @description The step that failed (1-based), or null
             * @example 2
             */
            failedStep: number | null;
            /**
             * @description Why it failed, or null
             * @example contact_opted_out
             */
            reason: string | null;
        };
        ContactOptedOutEvent: {
            /**
             * @description Event id (the `webhook-id` header of every attempt)
             * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
             */
            id: string;
            /**
             * @description Event type
             * @example contact.opted_out
             * @constant
             */
            type: "contact.opted_out";
            /**
             * Format: date-time
             * @description When the change happened (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            timestamp: string;
            data: components["schemas"]["ContactOptedOutEventData"];
        };
        /** @description A contact opted out of the channel (a STOP keyword, contacts/manage or contacts/import). */
        ContactOptedOutEventData: {
            /**
             * @description The channel the event happened in
             * @example ch_demoacmesupport
             */
            channelId: string;
            /** @description The contact */
            contact: {
                /**
                 * @description Contact id
                 * @example ct_01jhx3k8m0
                 */
                id: string;
                /**
                 * @description Phone number (digits with country code)
                 * @example 351912345678
                 */
                phone: string;
            };
            /**
             * @description What changed it: `keyword` (an inbound message), `api` (contacts/manage `status`) or `import` (contacts/import `status`)
             * @example keyword
             * @enum {string}
             */
            source: "keyword" | "api" | "import";
            /**
             * @description For `keyword`: the keyword as the contact wrote it (trimmed)
             * @example STOP
             */
            keyword?: string;
        };
        ContactOptedInEvent: {
            /**
             * @description Event id (the `webhook-id` header of every attempt)
             * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
             */
            id: string;
            /**
             * @description Event type
             * @example contact.opted_in
             * @constant
             */
            type: "contact.opted_in";
            /**
             * Format: date-time
             * @description When the change happened (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            timestamp: string;
            data: components["schemas"]["ContactOptedInEventData"];
        };
        /** @description A contact opted back in (a START keyword, contacts/manage or contacts/import). */
        ContactOptedInEventData: {
            /**
             * @description The channel the event happened in
             * @example ch_demoacmesupport
             */
            channelId: string;
            /** @description The contact */
            contact: {
                /**
                 * @description Contact id
                 * @example ct_01jhx3k8m0
                 */
                id: string;
                /**
                 * @description Phone number (digits with country code)
                 * @example 351912345678
                 */
                phone: string;
            };
            /**
             * @description What changed it: `keyword` (an inbound message), `api` (contacts/manage `status`) or `import` (contacts/import `status`)
             * @example keyword
             * @enum {string}
             */
            source: "keyword" | "api" | "import";
            /**
             * @description For `keyword`: the keyword as the contact wrote it (trimmed)
             * @example START
             */
            keyword?: string;
        };
        DeletedWebhook: {
            /**
             * @description The deleted subscription
             * @example wh_01jhx3k8m0
             */
            id: string;
            /**
             * @description Always true: nothing more is delivered to it and its delivery log is gone
             * @example true
             * @constant
             */
            deleted: true;
        };
        MediaLink: {
            /**
             * @description Opens the bytes without an API key until `expiresAt` (at least 5 minutes): a presigned link in AWS, a signed link on the local gateway.
             * @example https://media.example/…
             */
            url: string;
            /**
             * @description The media type of the bytes, as the chat network gave it.
             * @example image/jpeg
             */
            mimeType: string;
            /**
             * @description Size of the bytes.
             * @example 48213
             */
            fileSize: number;
            /**
             * @description Hex SHA-256 of the bytes.
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            sha256: string;
            /**
             * @description When `url` stops opening the bytes (ISO 8601); ask again for a new link.
             * @example 2026-01-01T12:15:00.000Z
             */
            expiresAt: string;
        };
        MediaUploadResult: {
            /**
             * @description The chat network's media id: pass it as chat/message/send's mediaId (the chat network keeps it 30 days)
             * @example 1037543291543636
             */
            mediaId: string;
            /**
             * @description The message type the file can be sent as
             * @example image
             * @enum {string}
             */
            type: "image" | "video" | "audio" | "document" | "sticker";
            /**
             * @description The decoded size in bytes
             * @example 52214
             */
            fileSize: number;
        };
        PortalCreatedKey: {
            /**
             * @description The key’s id
             * @example key_01jhx3k8m0
             */
            keyId: string;
            /**
             * @description The key itself: shown this once, stored nowhere (only its hash)
             * @example wsk_Ab3x…
             */
            apiKey: string;
            /**
             * @description The name given at creation
             * @example CRM sync
             */
            name: string;
            /**
             * @description The key’s first characters: enough to tell keys apart, never the key
             * @example wsk_Ab3x
             */
            prefix: string;
            /**
             * Format: date-time
             * @description When it was made (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            createdAt: string;
            /** @description When the key stops working (ISO 8601, UTC), or null */
            expiresAt: string | null;
        };
        PortalKey: {
            /**
             * @description The key’s id
             * @example key_01jhx3k8m0
             */
            keyId: string;
            /**
             * @description The name given at creation
             * @example CRM sync
             */
            name: string;
            /**
             * @description The key’s first characters: enough to tell keys apart, never the key
             * @example wsk_Ab3x
             */
            prefix: string;
            /**
             * Format: date-time
             * @description When it was made (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            createdAt: string;
            /** @description Its latest request in the last 7 days (from the request log) (ISO 8601, UTC), or null */
            lastUsedAt: string | null;
            /** @description When the key stops working (ISO 8601, UTC), or null */
            expiresAt: string | null;
            /**
             * @description Whether it works
             * @example active
             * @enum {string}
             */
            status: "active" | "revoked" | "expired";
        };
        PortalRevokedKey: {
            /**
             * @description The key’s id
             * @example key_01jhx3k8m0
             */
            keyId: string;
            /**
             * @description Revoked
             * @example true
             * @constant
             */
            revoked: true;
        };
        PortalRotatedKey: {
            /**
             * @description The key’s id
             * @example key_01jhx3k8m0
             */
            keyId: string;
            /**
             * @description The key itself: shown this once, stored nowhere (only its hash)
             * @example wsk_Ab3x…
             */
            apiKey: string;
            /**
             * @description The name given at creation
             * @example CRM sync
             */
            name: string;
            /**
             * @description The key’s first characters: enough to tell keys apart, never the key
             * @example wsk_Ab3x
             */
            prefix: string;
            /**
             * Format: date-time
             * @description When it was made (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            createdAt: string;
            /** @description When the key stops working (ISO 8601, UTC), or null */
            expiresAt: string | null;
            /**
             * @description The key revoked by the rotation
             * @example key_01jhx3k8m0
             */
            replacedKeyId: string;
        };
        PortalKeyUsage: {
            /**
             * @description The key’s id
             * @example key_01jhx3k8m0
             */
            keyId: string;
            last24Hours: components["schemas"]["PortalUsageWindow"];
            last7Days: components["schemas"]["PortalUsageWindow"];
            /**
             * @description The 7 days, oldest first (UTC dates)
             * @example [
             *       {
             *         "date": "2025-01-31",
             *         "requests": 42,
             *         "throttled": 0
             *       }
             *     ]
             */
            daily: {
                date: string;
                requests: number;
                throttled: number;
            }[];
        };
        PortalUsageWindow: {
            /**
             * @description Requests the API answered for the key
             * @example 42
             */
            requests: number;
            /**
             * @description Of them answered 429 (the per-minute limits)
             * @example 0
             */
            throttled: number;
            /**
             * @description Requests by rate class
             * @example {
             *       "api_read": 40,
             *       "api_write": 2
             *     }
             */
            byRateClass: {
                [key: string]: number;
            };
        };
        PortalRequest: {
            /**
             * Format: date-time
             * @description When it was answered (ISO 8601, UTC)
             * @example 2025-01-31T09:30:00.000Z
             */
            at: string;
            /**
             * @description The endpoint, below the API base
             * @example contacts/list
             */
            endpoint: string;
            /**
             * @description GET or POST
             * @example GET
             */
            method: string;
            /**
             * @description The HTTP status answered
             * @example 200
             */
            status: number;
            /**
             * @description The error code of a refusal
             * @example not_found
             */
            error?: string;
            /**
             * @description Time in the function, in milliseconds
             * @example 38
             */
            latencyMs: number;
            /**
             * @description The rate class it counted against
             * @example api_read
             */
            rateClass: string;
        };
        PortalDeliveries: {
            deliveries: components["schemas"]["WebhookDelivery"][];
            /**
             * @description Opaque cursor of the next page (pass it as `cursor`), or null
             * @example null
             */
            nextCursor: string | null;
        };
        ErrorResponse: {
            /** @constant */
            success: false;
            /**
             * @description Stable snake_case error code to branch on
             * @example invalid_parameter
             */
            error: string;
            /**
             * @description Human-readable detail
             * @example Missing required parameter: phoneNumber.
             */
            message?: string;
            /** @description More about the failure: the parameter at fault, unknown names, … */
            details?: {
                /**
                 * @description The parameter at fault (400, 403)
                 * @example phoneNumber
                 */
                parameter?: string;
            };
        };
    };
    responses: {
        /** @description A parameter is missing, invalid or not one the endpoint defines (`details.parameter` names it; for an unknown one the message suggests the closest defined name), the body is not JSON, or no channel could be chosen. Error codes: `invalid_parameter`, `missing_parameter`, `unknown_parameter`, `channel_required`, `invalid_json`, `payload_too_large`, `unsupported_content_type`, `outside_session_window`, `invalid_request`. */
        BadRequest: {
            headers: {
                /**
                 * @description Id of this request (API Gateway’s request id); quote it to support. On every response.
                 * @example c6af9ac6-7b61-11e6-9a41-93e8deadbeef
                 */
                "X-Request-Id": string;
                /**
                 * @description API answers are never cached.
                 * @example no-store
                 */
                "Cache-Control": string;
                /**
                 * @description Always nosniff.
                 * @example nosniff
                 */
                "X-Content-Type-Options": string;
                /**
                 * @description The route class’s policy (IETF httpapi draft): quota `q` per window `w` seconds.
                 * @example "api_read";q=120;w=60
                 */
                "RateLimit-Policy"?: string;
                /**
                 * @description Remaining requests `r` and seconds `t` until the window resets (IETF httpapi draft).
                 * @example "api_read";r=119;t=60
                 */
                RateLimit?: string;
                /**
                 * @description Requests allowed per window for this route class and API user.
                 * @example 120
                 */
                "RateLimit-Limit"?: number;
                /**
                 * @description Requests left in the current window.
                 * @example 119
                 */
                "RateLimit-Remaining"?: number;
                /**
                 * @description Seconds until the window resets.
                 * @example 60
                 */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "success": false,
                 *       "error": "invalid_parameter",
                 *       "message": "Invalid parameter color: must be # followed by six hex digits, e.g. #FF8800.",
                 *       "details": {
                 *         "parameter": "color"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description The API key is missing, unknown, revoked or expired, or was sent in the URL or body. Error codes: `unauthorized`. */
        Unauthorized: {
            headers: {
                /**
                 * @description Id of this request (API Gateway’s request id); quote it to support. On every response.
                 * @example c6af9ac6-7b61-11e6-9a41-93e8deadbeef
                 */
                "X-Request-Id": string;
                /**
                 * @description API answers are never cached.
                 * @example no-store
                 */
                "Cache-Control": string;
                /**
                 * @description Always nosniff.
                 * @example nosniff
                 */
                "X-Content-Type-Options": string;
                /**
                 * @description The route class’s policy (IETF httpapi draft): quota `q` per window `w` seconds.
                 * @example "api_read";q=120;w=60
                 */
                "RateLimit-Policy"?: string;
                /**
                 * @description Remaining requests `r` and seconds `t` until the window resets (IETF httpapi draft).
                 * @example "api_read";r=119;t=60
                 */
                RateLimit?: string;
                /**
                 * @description Requests allowed per window for this route class and API user.
                 * @example 120
                 */
                "RateLimit-Limit"?: number;
                /**
                 * @description Requests left in the current window.
                 * @example 119
                 */
                "RateLimit-Remaining"?: number;
                /**
                 * @description Seconds until the window resets.
                 * @example 60
                 */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "success": false,
                 *       "error": "unauthorized",
                 *       "message": "A valid API key is required: send it as X-API-Key or Authorization: Bearer."
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description The key may not use that channel or resource (also for ids of other workspaces and unknown ids), or the endpoint needs an admin key and this is a team key, or the recipient has opted out (`contact_opted_out`: nothing was sent). Error codes: `forbidden`, `contact_opted_out`. */
        Forbidden: {
            headers: {
                /**
                 * @description Id of this request (API Gateway’s request id); quote it to support. On every response.
                 * @example c6af9ac6-7b61-11e6-9a41-93e8deadbeef
                 */
                "X-Request-Id": string;
                /**
                 * @description API answers are never cached.
                 * @example no-store
                 */
                "Cache-Control": string;
                /**
                 * @description Always nosniff.
                 * @example nosniff
                 */
                "X-Content-Type-Options": string;
                /**
                 * @description The route class’s policy (IETF httpapi draft): quota `q` per window `w` seconds.
                 * @example "api_read";q=120;w=60
                 */
                "RateLimit-Policy"?: string;
                /**
                 * @description Remaining requests `r` and seconds `t` until the window resets (IETF httpapi draft).
                 * @example "api_read";r=119;t=60
                 */
                RateLimit?: string;
                /**
                 * @description Requests allowed per window for this route class and API user.
                 * @example 120
                 */
                "RateLimit-Limit"?: number;
                /**
                 * @description Requests left in the current window.
                 * @example 119
                 */
                "RateLimit-Remaining"?: number;
                /**
                 * @description Seconds until the window resets.
                 * @example 60
                 */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "success": false,
                 *       "error": "forbidden",
                 *       "message": "This API key may not use that channel.",
                 *       "details": {
                 *         "parameter": "channelId"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description The resource does not exist in this channel. Error codes: `not_found`. */
        NotFound: {
            headers: {
                /**
                 * @description Id of this request (API Gateway’s request id); quote it to support. On every response.
                 * @example c6af9ac6-7b61-11e6-9a41-93e8deadbeef
                 */
                "X-Request-Id": string;
                /**
                 * @description API answers are never cached.
                 * @example no-store
                 */
                "Cache-Control": string;
                /**
                 * @description Always nosniff.
                 * @example nosniff
                 */
                "X-Content-Type-Options": string;
                /**
                 * @description The route class’s policy (IETF httpapi draft): quota `q` per window `w` seconds.
                 * @example "api_read";q=120;w=60
                 */
                "RateLimit-Policy"?: string;
                /**
                 * @description Remaining requests `r` and seconds `t` until the window resets (IETF httpapi draft).
                 * @example "api_read";r=119;t=60
                 */
                RateLimit?: string;
                /**
                 * @description Requests allowed per window for this route class and API user.
                 * @example 120
                 */
                "RateLimit-Limit"?: number;
                /**
                 * @description Requests left in the current window.
                 * @example 119
                 */
                "RateLimit-Remaining"?: number;
                /**
                 * @description Seconds until the window resets.
                 * @example 60
                 */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "success": false,
                 *       "error": "not_found",
                 *       "message": "No such template in this channel."
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description The apiReference was already used for this recipient with other parameters. Error codes: `conflict`. */
        Conflict: {
            headers: {
                /**
                 * @description Id of this request (API Gateway’s request id); quote it to support. On every response.
                 * @example c6af9ac6-7b61-11e6-9a41-93e8deadbeef
                 */
                "X-Request-Id": string;
                /**
                 * @description API answers are never cached.
                 * @example no-store
                 */
                "Cache-Control": string;
                /**
                 * @description Always nosniff.
                 * @example nosniff
                 */
                "X-Content-Type-Options": string;
                /**
                 * @description The route class’s policy (IETF httpapi draft): quota `q` per window `w` seconds.
                 * @example "api_read";q=120;w=60
                 */
                "RateLimit-Policy"?: string;
                /**
                 * @description Remaining requests `r` and seconds `t` until the window resets (IETF httpapi draft).
                 * @example "api_read";r=119;t=60
                 */
                RateLimit?: string;
                /**
                 * @description Requests allowed per window for this route class and API user.
                 * @example 120
                 */
                "RateLimit-Limit"?: number;
                /**
                 * @description Requests left in the current window.
                 * @example 119
                 */
                "RateLimit-Remaining"?: number;
                /**
                 * @description Seconds until the window resets.
                 * @example 60
                 */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "success": false,
                 *       "error": "conflict",
                 *       "message": "This apiReference was already used for this recipient with other parameters."
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description The request is larger than an invocation carries (about 6 MB with the request around the body; API Gateway takes up to 10 MB): refused by the gateway before the endpoint runs. A body over the endpoint's own limit is a 400 `payload_too_large`. Error codes: `payload_too_large`. */
        PayloadTooLarge: {
            headers: {
                /**
                 * @description Id of this request (API Gateway’s request id); quote it to support. On every response.
                 * @example c6af9ac6-7b61-11e6-9a41-93e8deadbeef
                 */
                "X-Request-Id": string;
                /**
                 * @description API answers are never cached.
                 * @example no-store
                 */
                "Cache-Control": string;
                /**
                 * @description Always nosniff.
                 * @example nosniff
                 */
                "X-Content-Type-Options": string;
                /**
                 * @description The route class’s policy (IETF httpapi draft): quota `q` per window `w` seconds.
                 * @example "api_read";q=120;w=60
                 */
                "RateLimit-Policy"?: string;
                /**
                 * @description Remaining requests `r` and seconds `t` until the window resets (IETF httpapi draft).
                 * @example "api_read";r=119;t=60
                 */
                RateLimit?: string;
                /**
                 * @description Requests allowed per window for this route class and API user.
                 * @example 120
                 */
                "RateLimit-Limit"?: number;
                /**
                 * @description Requests left in the current window.
                 * @example 119
                 */
                "RateLimit-Remaining"?: number;
                /**
                 * @description Seconds until the window resets.
                 * @example 60
                 */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "success": false,
                 *       "error": "payload_too_large",
                 *       "message": "The request is too large: endpoints take bodies up to 64 KiB (contacts/import 1024 KiB).",
                 *       "details": {
                 *         "parameter": "body"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description The rate limit of the route class is exhausted for this API user; retry after `Retry-After` seconds. Error codes: `rate_limited`. */
        TooManyRequests: {
            headers: {
                /**
                 * @description Id of this request (API Gateway’s request id); quote it to support. On every response.
                 * @example c6af9ac6-7b61-11e6-9a41-93e8deadbeef
                 */
                "X-Request-Id": string;
                /**
                 * @description API answers are never cached.
                 * @example no-store
                 */
                "Cache-Control": string;
                /**
                 * @description Always nosniff.
                 * @example nosniff
                 */
                "X-Content-Type-Options": string;
                /**
                 * @description The route class’s policy (IETF httpapi draft): quota `q` per window `w` seconds.
                 * @example "api_read";q=120;w=60
                 */
                "RateLimit-Policy"?: string;
                /**
                 * @description Remaining requests `r` and seconds `t` until the window resets (IETF httpapi draft).
                 * @example "api_read";r=119;t=60
                 */
                RateLimit?: string;
                /**
                 * @description Requests allowed per window for this route class and API user.
                 * @example 120
                 */
                "RateLimit-Limit"?: number;
                /**
                 * @description Requests left in the current window.
                 * @example 119
                 */
                "RateLimit-Remaining"?: number;
                /**
                 * @description Seconds until the window resets.
                 * @example 60
                 */
                "RateLimit-Reset"?: number;
                /**
                 * @description Seconds to wait before retrying.
                 * @example 42
                 */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "success": false,
                 *       "error": "rate_limited",
                 *       "message": "Rate limit of 120 requests per minute for api_read exceeded. Retry after 42 seconds."
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description An unexpected error; quote `X-Request-Id` to support. Error codes: `internal_error`. */
        InternalError: {
            headers: {
                /**
                 * @description Id of this request (API Gateway’s request id); quote it to support. On every response.
                 * @example c6af9ac6-7b61-11e6-9a41-93e8deadbeef
                 */
                "X-Request-Id": string;
                /**
                 * @description API answers are never cached.
                 * @example no-store
                 */
                "Cache-Control": string;
                /**
                 * @description Always nosniff.
                 * @example nosniff
                 */
                "X-Content-Type-Options": string;
                /**
                 * @description The route class’s policy (IETF httpapi draft): quota `q` per window `w` seconds.
                 * @example "api_read";q=120;w=60
                 */
                "RateLimit-Policy"?: string;
                /**
                 * @description Remaining requests `r` and seconds `t` until the window resets (IETF httpapi draft).
                 * @example "api_read";r=119;t=60
                 */
                RateLimit?: string;
                /**
                 * @description Requests allowed per window for this route class and API user.
                 * @example 120
                 */
                "RateLimit-Limit"?: number;
                /**
                 * @description Requests left in the current window.
                 * @example 119
                 */
                "RateLimit-Remaining"?: number;
                /**
                 * @description Seconds until the window resets.
                 * @example 60
                 */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "success": false,
                 *       "error": "internal_error",
                 *       "message": "An unexpected error occurred. Quote the request id when you contact support."
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description The chat network refused or failed the request in a way the caller cannot fix by changing parameters. Error codes: `chat_network_error`. */
        BadGateway: {
            headers: {
                /**
                 * @description Id of this request (API Gateway’s request id); quote it to support. On every response.
                 * @example c6af9ac6-7b61-11e6-9a41-93e8deadbeef
                 */
                "X-Request-Id": string;
                /**
                 * @description API answers are never cached.
                 * @example no-store
                 */
                "Cache-Control": string;
                /**
                 * @description Always nosniff.
                 * @example nosniff
                 */
                "X-Content-Type-Options": string;
                /**
                 * @description The route class’s policy (IETF httpapi draft): quota `q` per window `w` seconds.
                 * @example "api_read";q=120;w=60
                 */
                "RateLimit-Policy"?: string;
                /**
                 * @description Remaining requests `r` and seconds `t` until the window resets (IETF httpapi draft).
                 * @example "api_read";r=119;t=60
                 */
                RateLimit?: string;
                /**
                 * @description Requests allowed per window for this route class and API user.
                 * @example 120
                 */
                "RateLimit-Limit"?: number;
                /**
                 * @description Requests left in the current window.
                 * @example 119
                 */
                "RateLimit-Remaining"?: number;
                /**
                 * @description Seconds until the window resets.
                 * @example 60
                 */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "success": false,
                 *       "error": "chat_network_error",
                 *       "message": "The chat network did not accept the message."
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description A dependency is busy or unavailable; safe to retry (after `Retry-After` seconds when given). Error codes: `service_unavailable`. */
        ServiceUnavailable: {
            headers: {
                /**
                 * @description Id of this request (API Gateway’s request id); quote it to support. On every response.
                 * @example c6af9ac6-7b61-11e6-9a41-93e8deadbeef
                 */
                "X-Request-Id": string;
                /**
                 * @description API answers are never cached.
                 * @example no-store
                 */
                "Cache-Control": string;
                /**
                 * @description Always nosniff.
                 * @example nosniff
                 */
                "X-Content-Type-Options": string;
                /**
                 * @description The route class’s policy (IETF httpapi draft): quota `q` per window `w` seconds.
                 * @example "api_read";q=120;w=60
                 */
                "RateLimit-Policy"?: string;
                /**
                 * @description Remaining requests `r` and seconds `t` until the window resets (IETF httpapi draft).
                 * @example "api_read";r=119;t=60
                 */
                RateLimit?: string;
                /**
                 * @description Requests allowed per window for this route class and API user.
                 * @example 120
                 */
                "RateLimit-Limit"?: number;
                /**
                 * @description Requests left in the current window.
                 * @example 119
                 */
                "RateLimit-Remaining"?: number;
                /**
                 * @description Seconds until the window resets.
                 * @example 60
                 */
                "RateLimit-Reset"?: number;
                /**
                 * @description Seconds to wait before retrying.
                 * @example 42
                 */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "success": false,
                 *       "error": "service_unavailable",
                 *       "message": "The service is busy. Retry shortly."
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /**
         * @description Id of this request (API Gateway’s request id); quote it to support. On every response.
         * @example c6af9ac6-7b61-11e6-9a41-93e8deadbeef
         */
        "X-Request-Id": string;
        /**
         * @description API answers are never cached.
         * @example no-store
         */
        "Cache-Control": string;
        /**
         * @description Always nosniff.
         * @example nosniff
         */
        "X-Content-Type-Options": string;
        /**
         * @description The route class’s policy (IETF httpapi draft): quota `q` per window `w` seconds.
         * @example "api_read";q=120;w=60
         */
        "RateLimit-Policy": string;
        /**
         * @description Remaining requests `r` and seconds `t` until the window resets (IETF httpapi draft).
         * @example "api_read";r=119;t=60
         */
        RateLimit: string;
        /**
         * @description Requests allowed per window for this route class and API user.
         * @example 120
         */
        "RateLimit-Limit": number;
        /**
         * @description Requests left in the current window.
         * @example 119
         */
        "RateLimit-Remaining": number;
        /**
         * @description Seconds until the window resets.
         * @example 60
         */
        "RateLimit-Reset": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    channelsListGet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channels this key may use, ordered by name; `message` states the count. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelsListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    channelsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["ChannelsListParams"];
            };
        };
        responses: {
            /** @description The channels this key may use, ordered by name; `message` states the count. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelsListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    contactsManageGet: {
        parameters: {
            query: {
                /**
                 * @description Phone number with country code, in any common notation (`+1 (415) 555-0123`, `14155550123`, `0044…`); stored as digits with country code. Matches the contact.
                 * @example +14155550123
                 */
                phoneNumber: string;
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Display name of the contact.
                 * @example Bo Example
                 */
                name?: string;
                /**
                 * @description Email address (stored lower-case).
                 * @example bo@example.com
                 */
                email?: string;
                /**
                 * @description http or https URL of a profile picture.
                 * @example https://example.com/bo.jpg
                 */
                profilePictureUrl?: string;
                /** @description Custom field values by field name: a JSON object, or (GET) the JSON object as text, or `key:value` pairs separated by commas (a value that contains a comma needs the JSON form). Names must be defined with custom-fields/manage; values must fit the field type; a null or empty value clears the field. Keys not named keep their values. */
                customFieldsData?: string;
                /**
                 * @description Names of labels of the channel (matched case-insensitively), as a JSON array or (GET) comma-separated; a GET value that contains a comma needs the JSON array as text, e.g. `["Smith, Jr."]`. Replaces the contact’s labels; unknown names are a 400.
                 * @example [
                 *       "VIP",
                 *       "new"
                 *     ]
                 */
                labelNames?: string[];
                /**
                 * @description Opt-out status: `opted_out` stops every send to the contact (403 `contact_opted_out`), `active` allows them again. Each change is recorded (when, by which API user).
                 * @example active
                 */
                status?: "active" | "opted_out";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contact as stored; `created` tells a create from an update. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactsManageResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    contactsManage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "phoneNumber": "+14155550123",
                 *       "channelId": "ch_demoacmesupport",
                 *       "name": "Bo Example",
                 *       "email": "bo@example.com",
                 *       "profilePictureUrl": "https://example.com/bo.jpg",
                 *       "customFieldsData": {
                 *         "city": "Oakland",
                 *         "tier": "gold"
                 *       },
                 *       "labelNames": [
                 *         "VIP",
                 *         "new"
                 *       ],
                 *       "status": "active"
                 *     }
                 */
                "application/json": components["schemas"]["ContactsManageParams"];
            };
        };
        responses: {
            /** @description The contact as stored; `created` tells a create from an update. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactsManageResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    contactsImportGet: {
        parameters: {
            query: {
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description The contacts: 1 to 1,000 objects, each with the parameters of contacts/manage (`phoneNumber` required; a row’s `channelId` is ignored; any other key refuses the whole call with 400 `unknown_parameter` naming it, e.g. `contacts[2].labels`, and nothing is written). Each row is applied as contacts/manage would apply it; a refused row is reported by its index and does not stop the others. Rows naming the same phone number are applied as one contact: each field’s last value wins (custom fields key by key), and at most one status change (one opt-out event) a contact. Importing the same rows again creates nothing. The body may be up to 1 MiB. In a query string: the JSON text of the array.
                 * @example [
                 *       {
                 *         "phoneNumber": "+14155550123",
                 *         "name": "Bo Example",
                 *         "email": "bo@example.com",
                 *         "labelNames": [
                 *           "VIP"
                 *         ],
                 *         "customFieldsData": {
                 *           "city": "Oakland"
                 *         }
                 *       },
                 *       {
                 *         "phoneNumber": "+442079460958",
                 *         "name": "Ann Example"
                 *       }
                 *     ]
                 */
                contacts: {
                    phoneNumber: string;
                    name?: string;
                    email?: string;
                    profilePictureUrl?: string;
                    customFieldsData?: {
                        [key: string]: string | number | boolean | null;
                    };
                    labelNames?: string[];
                    /** @enum {string} */
                    status?: "active" | "opted_out";
                    /** @description Ignored: the call’s channelId applies. */
                    channelId?: string;
                }[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Each row applied as contacts/manage would apply it; a refused row does not stop the others and is reported by its index in `errors`. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactsImportResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    contactsImport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport",
                 *       "contacts": [
                 *         {
                 *           "phoneNumber": "+14155550123",
                 *           "name": "Bo Example",
                 *           "email": "bo@example.com",
                 *           "labelNames": [
                 *             "VIP"
                 *           ],
                 *           "customFieldsData": {
                 *             "city": "Oakland"
                 *           }
                 *         },
                 *         {
                 *           "phoneNumber": "+442079460958",
                 *           "name": "Ann Example"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ContactsImportParams"];
            };
        };
        responses: {
            /** @description Each row applied as contacts/manage would apply it; a refused row does not stop the others and is reported by its index in `errors`. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactsImportResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    contactsListGet: {
        parameters: {
            query?: {
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Page number, from 1.
                 * @example 1
                 */
                page?: number;
                /**
                 * @description Page size. Values above 200 are clamped to 200 (`pagination.limit` then says 200).
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description Case-insensitive substring of the name, or digits of the phone number (a `+` and spaces are ignored). Empty means no filter.
                 * @example example
                 */
                search?: string;
                /**
                 * @description Only contacts with this opt-out status (`active` or `opted_out`).
                 * @example opted_out
                 */
                status?: "active" | "opted_out";
                /**
                 * @description Opaque cursor from a previous answer's `nextCursor` (bound to the channel and the query).
                 * @example eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8
                 */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the contacts, ordered by phone number; `pagination` counts all matches. A page holds `limit` contacts unless they would pass 5 MB of answer: it then ends early, and `pagination.nextCursor` (given on every page but the last) continues exactly after its last contact. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactsListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    contactsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport",
                 *       "page": 1,
                 *       "limit": 20,
                 *       "search": "example",
                 *       "status": "opted_out",
                 *       "cursor": "eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8"
                 *     }
                 */
                "application/json": components["schemas"]["ContactsListParams"];
            };
        };
        responses: {
            /** @description One page of the contacts, ordered by phone number; `pagination` counts all matches. A page holds `limit` contacts unless they would pass 5 MB of answer: it then ends early, and `pagination.nextCursor` (given on every page but the last) continues exactly after its last contact. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactsListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    contactsDeleteGet: {
        parameters: {
            query?: {
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Phone number of the contact to erase, with country code (or pass contactId).
                 * @example +14155550123
                 */
                phoneNumber?: string;
                /**
                 * @description Id of the contact (`data.id` of contacts/manage); alternative to phoneNumber. Unknown, or of another channel: 404.
                 * @example ct_01jhx3k8m0
                 */
                contactId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contact, its labels, custom field values, search entry and conversation are removed and its messages’ contents blanked (status skeletons stay). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactsDeleteResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    contactsDelete: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport",
                 *       "phoneNumber": "+14155550123"
                 *     }
                 */
                "application/json": components["schemas"]["ContactsDeleteParams"];
            };
        };
        responses: {
            /** @description The contact, its labels, custom field values, search entry and conversation are removed and its messages’ contents blanked (status skeletons stay). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactsDeleteResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    labelsManageGet: {
        parameters: {
            query: {
                /**
                 * @description Label name: the match key (case-insensitive); the case first given is kept.
                 * @example Customer
                 */
                name: string;
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Free text; an empty string clears it.
                 * @example Paying customer
                 */
                description?: string;
                /**
                 * @description Hex color: `#` and six hex digits (stored upper-case).
                 * @example #1E88E5
                 */
                color?: string;
                /**
                 * @description Sort order in lists (ascending).
                 * @example 3
                 */
                displayOrder?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The label as stored; `created` tells a create from an update. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabelsManageResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    labelsManage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Customer",
                 *       "channelId": "ch_demoacmesupport",
                 *       "description": "Paying customer",
                 *       "color": "#1E88E5",
                 *       "displayOrder": 3
                 *     }
                 */
                "application/json": components["schemas"]["LabelsManageParams"];
            };
        };
        responses: {
            /** @description The label as stored; `created` tells a create from an update. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabelsManageResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    labelsListGet: {
        parameters: {
            query?: {
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The labels of the channel, by display order. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabelsListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    labelsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport"
                 *     }
                 */
                "application/json": components["schemas"]["LabelsListParams"];
            };
        };
        responses: {
            /** @description The labels of the channel, by display order. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabelsListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    customFieldsManageGet: {
        parameters: {
            query: {
                /**
                 * @description Field name: the match key (case-insensitive) and the key in customFieldsData.
                 * @example plan
                 */
                name: string;
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Value type of the field; `dropdown` needs options. Default on create: text.
                 * @example dropdown
                 */
                type?: "text" | "number" | "email" | "phone" | "date" | "label" | "dropdown";
                /**
                 * @description Whether contacts/manage must set this field when it creates a contact (`true`/`false`).
                 * @example false
                 */
                isRequired?: boolean;
                /**
                 * @description Allowed values of a dropdown field, as a JSON array or (GET) comma-separated; a GET value that contains a comma needs the JSON array as text, e.g. `["S, M","L"]`.
                 * @example [
                 *       "free",
                 *       "pro"
                 *     ]
                 */
                options?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The custom field definition as stored; `created` tells a create from an update. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldsManageResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    customFieldsManage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "plan",
                 *       "channelId": "ch_demoacmesupport",
                 *       "type": "dropdown",
                 *       "isRequired": false,
                 *       "options": [
                 *         "free",
                 *         "pro"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CustomFieldsManageParams"];
            };
        };
        responses: {
            /** @description The custom field definition as stored; `created` tells a create from an update. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldsManageResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    customFieldsListGet: {
        parameters: {
            query?: {
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The custom field definitions of the channel. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldsListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    customFieldsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport"
                 *     }
                 */
                "application/json": components["schemas"]["CustomFieldsListParams"];
            };
        };
        responses: {
            /** @description The custom field definitions of the channel. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldsListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatTemplatesListGet: {
        parameters: {
            query?: {
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The APPROVED templates of the channel, with the variables a send must fill. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatTemplatesListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatTemplatesList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport"
                 *     }
                 */
                "application/json": components["schemas"]["ChatTemplatesListParams"];
            };
        };
        responses: {
            /** @description The APPROVED templates of the channel, with the variables a send must fill. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatTemplatesListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatTemplatesSendGet: {
        parameters: {
            query: {
                /**
                 * @description Recipient phone number with country code, in any common notation.
                 * @example +14155550123
                 */
                to: string;
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Exact name of an APPROVED template of the channel (see chat/templates/list).
                 * @example order_update
                 */
                templateName: string;
                /**
                 * @description Template language, e.g. `en` or `en_US`. When omitted: the stored template’s language (falls back to `en`).
                 * @example en
                 */
                languageCode?: string;
                /**
                 * @description Body variables in order ({{1}}, {{2}}, …): a JSON array or (GET) a comma-separated string; a GET value that contains a comma needs the JSON array as text, e.g. `["Smith, Jr.","A-1001"]` (or `body1`, `body2`, …). Alternatively pass `body1`, `body2`, … (not both). A value may not contain a newline, a tab or more than four consecutive spaces (the chat network refuses them).
                 * @example [
                 *       "Bo",
                 *       "A-1001"
                 *     ]
                 */
                variables?: string[] | string;
                /**
                 * @description Text for the header variable of a TEXT header; no newline, tab or more than four consecutive spaces.
                 * @example Spring sale
                 */
                header?: string;
                /**
                 * @description Header image URL (http or https) for an IMAGE header.
                 * @example https://example.com/promo.jpg
                 */
                image?: string;
                /**
                 * @description Header video URL (http or https) for a VIDEO header.
                 * @example https://example.com/promo.mp4
                 */
                video?: string;
                /**
                 * @description Header document URL (http or https) for a DOCUMENT header.
                 * @example https://example.com/terms.pdf
                 */
                document?: string;
                /**
                 * @description Header media URL, used with `mediaType` (alternative to image, video, document).
                 * @example https://example.com/promo.jpg
                 */
                mediaUrl?: string;
                /**
                 * @description Type of `mediaUrl`.
                 * @example image
                 */
                mediaType?: "image" | "video" | "document";
                /**
                 * @description Your reference for this send, an idempotency key per channel, recipient and 24 hours: the same reference with the same parameters answers the first send again (nothing is sent twice); with other parameters it is a 409. References starting with `automation:` are reserved for the automations’ own sends (400).
                 * @example order-1234
                 */
                apiReference?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The send was accepted by the chat network; poll chat/message/status with `chatmid`. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatTemplatesSendResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatTemplatesSend: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport",
                 *       "to": "+14155550123",
                 *       "templateName": "order_update",
                 *       "variables": [
                 *         "Bo",
                 *         "A-1001"
                 *       ],
                 *       "apiReference": "order-1234"
                 *     }
                 */
                "application/json": components["schemas"]["ChatTemplatesSendParams"];
            };
        };
        responses: {
            /** @description The send was accepted by the chat network; poll chat/message/status with `chatmid`. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatTemplatesSendResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatMessageSendGet: {
        parameters: {
            query: {
                /**
                 * @description Recipient phone number with country code, in any common notation.
                 * @example +14155550123
                 */
                to: string;
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Message type; media types (image, video, document, audio, sticker) need `url` or `mediaId`, the others the parameter of their name (`interactive`, `location`, `reaction`).
                 * @example text
                 */
                type?: "text" | "image" | "video" | "document" | "audio" | "sticker" | "interactive" | "location" | "reaction";
                /**
                 * @description Message text (required when type is text).
                 * @example Hello from the Workspace API
                 */
                body?: string;
                /**
                 * @description Media URL (http or https): a media type needs this or `mediaId`, not both.
                 * @example https://example.com/photo.jpg
                 */
                url?: string;
                /**
                 * @description The media id chat/media/upload answered (uploaded to this channel): a media type needs this or `url`, not both.
                 * @example 1037543291543636
                 */
                mediaId?: string;
                /**
                 * @description Caption of a media message.
                 * @example Your receipt
                 */
                caption?: string;
                /**
                 * @description File name shown for a document message.
                 * @example receipt.pdf
                 */
                filename?: string;
                /**
                 * @description The Cloud API `interactive` object (type `interactive`): an optional `header` (text ≤ 60 characters, or image/video/document as `{link}` or `{id}` from chat/media/upload; a list takes only text); `button` (1–3 reply buttons, titles ≤ 20 characters, ids and titles unique), `list` (a button ≤ 20 characters opening up to 10 sections of up to 10 rows in all; row title ≤ 24, description ≤ 72) or `cta_url` (one URL button, display text ≤ 20). Body text ≤ 1024 characters (list: 4096), header text and footer ≤ 60.
                 * @example {
                 *       "type": "button",
                 *       "body": {
                 *         "text": "Is your parcel damaged?"
                 *       },
                 *       "action": {
                 *         "buttons": [
                 *           {
                 *             "type": "reply",
                 *             "reply": {
                 *               "id": "refund",
                 *               "title": "Refund"
                 *             }
                 *           },
                 *           {
                 *             "type": "reply",
                 *             "reply": {
                 *               "id": "replace",
                 *               "title": "Replacement"
                 *             }
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                interactive?: {
                    /** @constant */
                    type: "button";
                    header?: {
                        /** @constant */
                        type: "text";
                        text: string;
                    } | {
                        /** @constant */
                        type: "image";
                        image: {
                            /** Format: uri */
                            link: string;
                        } | {
                            id: string;
                        };
                    } | {
                        /** @constant */
                        type: "video";
                        video: {
                            /** Format: uri */
                            link: string;
                        } | {
                            id: string;
                        };
                    } | {
                        /** @constant */
                        type: "document";
                        document: {
                            /** Format: uri */
                            link: string;
                        } | {
                            id: string;
                        };
                    };
                    body: {
                        text: string;
                    };
                    footer?: {
                        text: string;
                    };
                    action: {
                        buttons: {
                            /** @constant */
                            type: "reply";
                            reply: {
                                id: string;
                                title: string;
                            };
                        }[];
                    };
                } | {
                    /** @constant */
                    type: "list";
                    header?: {
                        /** @constant */
                        type: "text";
                        text: string;
                    };
                    body: {
                        text: string;
                    };
                    footer?: {
                        text: string;
                    };
                    action: {
                        button: string;
                        sections: {
                            title?: string;
                            rows: {
                                id: string;
                                title: string;
                                description?: string;
                            }[];
                        }[];
                    };
                } | {
                    /** @constant */
                    type: "cta_url";
                    header?: {
                        /** @constant */
                        type: "text";
                        text: string;
                    } | {
                        /** @constant */
                        type: "image";
                        image: {
                            /** Format: uri */
                            link: string;
                        } | {
                            id: string;
                        };
                    } | {
                        /** @constant */
                        type: "video";
                        video: {
                            /** Format: uri */
                            link: string;
                        } | {
                            id: string;
                        };
                    } | {
                        /** @constant */
                        type: "document";
                        document: {
                            /** Format: uri */
                            link: string;
                        } | {
                            id: string;
                        };
                    };
                    body: {
                        text: string;
                    };
                    footer?: {
                        text: string;
                    };
                    action: {
                        /** @constant */
                        name: "cta_url";
                        parameters: {
                            display_text: string;
                            /** Format: uri */
                            url: string;
                        };
                    };
                };
                /** @description A place (type `location`): `latitude`, `longitude`, optional `name` and `address`. */
                location?: string;
                /** @description An emoji on a message (type `reaction`): `messageId` (a chatmid of this contact in this channel) and `emoji` (one emoji; empty removes the reaction). */
                reaction?: string;
                /**
                 * @description Quote a message: the chatmid of a message of this contact in this channel (inbound or outbound). The chat network shows it above the new one.
                 * @example wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0
                 */
                replyTo?: string;
                /**
                 * @description Your reference for this send, an idempotency key per channel, recipient and 24 hours: the same reference with the same parameters answers the first send again (nothing is sent twice); with other parameters it is a 409. References starting with `automation:` are reserved for the automations’ own sends (400).
                 * @example order-1234
                 */
                apiReference?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The send was accepted by the chat network; poll chat/message/status with `chatmid`. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMessageSendResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatMessageSend: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport",
                 *       "to": "+14155550123",
                 *       "type": "text",
                 *       "body": "Hello from the Workspace API"
                 *     }
                 */
                "application/json": components["schemas"]["ChatMessageSendParams"];
            };
        };
        responses: {
            /** @description The send was accepted by the chat network; poll chat/message/status with `chatmid`. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMessageSendResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatMessageStatusGet: {
        parameters: {
            query: {
                /**
                 * @description The chat network message id a send answered (`data.chatmid`).
                 * @example wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0
                 */
                chatmid: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The message and its delivery status. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMessageStatusResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatMessageStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "chatmid": "wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0"
                 *     }
                 */
                "application/json": components["schemas"]["ChatMessageStatusParams"];
            };
        };
        responses: {
            /** @description The message and its delivery status. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMessageStatusResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatMessageReadGet: {
        parameters: {
            query: {
                /**
                 * @description The chatmid of an inbound message (message.received, chat/messages/list).
                 * @example wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0
                 */
                chatmid: string;
                /**
                 * @description Also show the contact the typing indicator, until the next message is sent (at most 25 seconds).
                 * @example true
                 */
                typingIndicator?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The message is marked read on the chat network. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMessageReadResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatMessageRead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "chatmid": "wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0",
                 *       "typingIndicator": true
                 *     }
                 */
                "application/json": components["schemas"]["ChatMessageReadParams"];
            };
        };
        responses: {
            /** @description The message is marked read on the chat network. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMessageReadResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatMessagesListGet: {
        parameters: {
            query?: {
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Phone number of the contact whose messages to list, with country code (or pass contactId).
                 * @example +14155550123
                 */
                phoneNumber?: string;
                /**
                 * @description Id of the contact (`data.id` of contacts/manage); alternative to phoneNumber. Unknown, or of another channel: 404.
                 * @example ct_01jhx3k8m0
                 */
                contactId?: string;
                /**
                 * @description Page size, 1 to 100.
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description Opaque cursor from a previous answer's `nextCursor` (bound to the channel and the query).
                 * @example eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8
                 */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the contact’s messages in the channel, inbound and outbound, newest first; `nextCursor` fetches the next page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMessagesListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatMessagesList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport",
                 *       "phoneNumber": "+14155550123",
                 *       "limit": 20
                 *     }
                 */
                "application/json": components["schemas"]["ChatMessagesListParams"];
            };
        };
        responses: {
            /** @description One page of the contact’s messages in the channel, inbound and outbound, newest first; `nextCursor` fetches the next page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMessagesListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    automationsListGet: {
        parameters: {
            query?: {
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The automations of the channel; `total` counts them. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationsListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    automationsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport"
                 *     }
                 */
                "application/json": components["schemas"]["AutomationsListParams"];
            };
        };
        responses: {
            /** @description The automations of the channel; `total` counts them. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationsListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    automationsTriggerGet: {
        parameters: {
            query: {
                /**
                 * @description Phone number of the contact (created when it does not exist), with country code.
                 * @example +14155550123
                 */
                phoneNumber: string;
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Id of the automation to run (or pass automationName).
                 * @example au_01jhx3k8m0
                 */
                automationId?: string;
                /**
                 * @description Name of the automation to run, matched case-insensitively (or pass automationId).
                 * @example Welcome Flow
                 */
                automationName?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The execution started (status triggered). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationsTriggerResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    automationsTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport",
                 *       "phoneNumber": "+14155550123",
                 *       "automationName": "Welcome Flow"
                 *     }
                 */
                "application/json": components["schemas"]["AutomationsTriggerParams"];
            };
        };
        responses: {
            /** @description The execution started (status triggered). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationsTriggerResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    webhooksManageGet: {
        parameters: {
            query: {
                /**
                 * @description Where to POST deliveries: https:// to a public address (the local stack also takes http://127.0.0.1 and http://localhost). The match key in the channel: the same url updates its subscription.
                 * @example https://example.com/hooks/workspace
                 */
                url: string;
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Event types to receive, as a JSON array or comma-separated: message.received, message.status, automation.execution.completed, automation.execution.failed, contact.opted_out, contact.opted_in; `*` or absent for every type.
                 * @example [
                 *       "message.status",
                 *       "message.received"
                 *     ]
                 */
                events?: string[];
                /**
                 * @description Whether deliveries are made (`true`/`false`); true again after a 410 deactivated it.
                 * @example true
                 */
                isActive?: boolean;
                /**
                 * @description Free text; an empty string clears it.
                 * @example CRM sync
                 */
                description?: string;
                /**
                 * @description Issue a new signing secret (shown once); the previous one keeps signing beside it for 24 hours.
                 * @example false
                 */
                rotateSecret?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription; `secret` only when it was created or its secret rotated. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksManageResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    webhooksManage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://example.com/hooks/workspace",
                 *       "channelId": "ch_demoacmesupport",
                 *       "events": [
                 *         "message.status",
                 *         "message.received"
                 *       ],
                 *       "isActive": true,
                 *       "description": "CRM sync",
                 *       "rotateSecret": false
                 *     }
                 */
                "application/json": components["schemas"]["WebhooksManageParams"];
            };
        };
        responses: {
            /** @description The subscription; `secret` only when it was created or its secret rotated. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksManageResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    webhooksListGet: {
        parameters: {
            query?: {
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel's subscriptions and how their deliveries fare; never a secret. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    webhooksList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport"
                 *     }
                 */
                "application/json": components["schemas"]["WebhooksListParams"];
            };
        };
        responses: {
            /** @description The channel's subscriptions and how their deliveries fare; never a secret. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    webhooksDeliveriesGet: {
        parameters: {
            query: {
                /**
                 * @description Id of a webhook subscription of the channel (webhooks/list).
                 * @example wh_01jhx3k8m0
                 */
                webhookId: string;
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Only deliveries in this state.
                 * @example failed
                 */
                status?: "pending" | "succeeded" | "failed";
                /**
                 * @description Page size (default 50).
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description Opaque cursor from a previous answer's `nextCursor` (bound to the channel and the query).
                 * @example eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8
                 */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription's deliveries, newest event first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksDeliveriesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    webhooksDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "webhookId": "wh_01jhx3k8m0",
                 *       "channelId": "ch_demoacmesupport",
                 *       "status": "failed",
                 *       "limit": 20,
                 *       "cursor": "eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8"
                 *     }
                 */
                "application/json": components["schemas"]["WebhooksDeliveriesParams"];
            };
        };
        responses: {
            /** @description The subscription's deliveries, newest event first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksDeliveriesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    webhooksRedeliverGet: {
        parameters: {
            query: {
                /**
                 * @description Id of a webhook subscription of the channel (webhooks/list).
                 * @example wh_01jhx3k8m0
                 */
                webhookId: string;
                /**
                 * @description Id of an event of the channel (events/list, or the `webhook-id` header of a delivery).
                 * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
                 */
                eventId: string;
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event is queued for the subscription again, with the same webhook-id. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksRedeliverResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    webhooksRedeliver: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "webhookId": "wh_01jhx3k8m0",
                 *       "eventId": "evt_0mi2k3x9a3f9c2b1d4e5f6a7b8",
                 *       "channelId": "ch_demoacmesupport"
                 *     }
                 */
                "application/json": components["schemas"]["WebhooksRedeliverParams"];
            };
        };
        responses: {
            /** @description The event is queued for the subscription again, with the same webhook-id. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksRedeliverResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    eventsListGet: {
        parameters: {
            query?: {
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Page size (default 50).
                 * @example 50
                 */
                limit?: number;
                /**
                 * @description Opaque cursor from a previous `nextCursor`; absent = the oldest event kept (events are kept at least 7 days).
                 * @example eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8
                 */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel's events oldest first, each exactly the body webhooks deliver; `nextCursor` is null at the head (ask again later with the same cursor). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventsListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    eventsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport",
                 *       "limit": 50,
                 *       "cursor": "eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8"
                 *     }
                 */
                "application/json": components["schemas"]["EventsListParams"];
            };
        };
        responses: {
            /** @description The channel's events oldest first, each exactly the body webhooks deliver; `nextCursor` is null at the head (ask again later with the same cursor). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventsListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    webhooksDeleteGet: {
        parameters: {
            query: {
                /**
                 * @description Id of a webhook subscription of the channel (webhooks/list).
                 * @example wh_01jhx3k8m0
                 */
                webhookId: string;
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription is gone: nothing more is delivered to it, its delivery log is deleted and it no longer counts toward the 10 a channel. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksDeleteResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    webhooksDelete: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "webhookId": "wh_01jhx3k8m0",
                 *       "channelId": "ch_demoacmesupport"
                 *     }
                 */
                "application/json": components["schemas"]["WebhooksDeleteParams"];
            };
        };
        responses: {
            /** @description The subscription is gone: nothing more is delivered to it, its delivery log is deleted and it no longer counts toward the 10 a channel. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksDeleteResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatMediaGetGet: {
        parameters: {
            query: {
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description The media id of an inbound message's `content.mediaId` (image, video, audio, document, sticker).
                 * @example 1234567890123456
                 */
                mediaId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A link to the bytes that needs no API key, and what the bytes are. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMediaGetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatMediaGet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport",
                 *       "mediaId": "1234567890123456"
                 *     }
                 */
                "application/json": components["schemas"]["ChatMediaGetParams"];
            };
        };
        responses: {
            /** @description A link to the bytes that needs no API key, and what the bytes are. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMediaGetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatMediaUploadGet: {
        parameters: {
            query: {
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description The file's MIME type, one WhatsApp supports (image/jpeg, image/png, video/mp4, audio/ogg, application/pdf, …).
                 * @example image/jpeg
                 */
                mimeType: string;
                /**
                 * @description The file as standard base64. The whole request may be at most 6 MB (the invocation payload limit), so about 4.7 MB decoded; less where WhatsApp limits the type (stickers 500 KB).
                 * @example /9j/4AAQSkZJRgABAQ==
                 */
                data: string;
                /**
                 * @description The file name the chat network keeps with the media.
                 * @example receipt.pdf
                 */
                filename?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file is uploaded; send it with chat/message/send and this mediaId. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMediaUploadResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    chatMediaUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "channelId": "ch_demoacmesupport",
                 *       "mimeType": "image/jpeg",
                 *       "data": "/9j/4AAQSkZJRgABAQ==",
                 *       "filename": "receipt.pdf"
                 *     }
                 */
                "application/json": components["schemas"]["ChatMediaUploadParams"];
            };
        };
        responses: {
            /** @description The file is uploaded; send it with chat/message/send and this mediaId. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMediaUploadResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    openApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document of this API. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    portalKeysList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user’s own keys, newest first; never a secret. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalKey"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    portalKeysCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "CRM sync",
                 *       "expiresAt": "2027-01-31T00:00:00Z"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description A name for the key, to tell it apart in the keys list.
                     * @example CRM sync
                     */
                    name: string;
                    /**
                     * @description When the key stops working (ISO 8601, in the future); none = never.
                     * @example 2027-01-31T00:00:00Z
                     */
                    expiresAt?: string;
                };
            };
        };
        responses: {
            /** @description The new key: its value is shown in this answer only. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalCreatedKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    portalKeysRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "keyId": "key_01jhx3k8m0"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Id of one of your keys (GET /portal/api/keys).
                     * @example key_01jhx3k8m0
                     */
                    keyId: string;
                };
            };
        };
        responses: {
            /** @description The key is revoked: the API refuses it within 10 seconds. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalRevokedKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    portalKeysRotate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "keyId": "key_01jhx3k8m0"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Id of one of your keys (GET /portal/api/keys).
                     * @example key_01jhx3k8m0
                     */
                    keyId: string;
                };
            };
        };
        responses: {
            /** @description The new key (its value shown in this answer only); the old one is revoked. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalRotatedKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    portalUsage: {
        parameters: {
            query: {
                /**
                 * @description Id of one of your keys (GET /portal/api/keys).
                 * @example key_01jhx3k8m0
                 */
                keyId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key’s requests by rate class over 24 hours and 7 days, its 429s, and a day-by-day count. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalKeyUsage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    portalRequests: {
        parameters: {
            query: {
                /**
                 * @description Id of one of your keys (GET /portal/api/keys).
                 * @example key_01jhx3k8m0
                 */
                keyId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key’s last 100 requests of the last 7 days, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalRequest"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    portalWebhooksList: {
        parameters: {
            query?: {
                /**
                 * @description Only this channel’s subscriptions; absent = every channel you may use.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscriptions of the user’s channels, as webhooks/list shows them; never a secret. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    portalWebhooksDeliveries: {
        parameters: {
            query: {
                /**
                 * @description Id of a webhook subscription of the channel (webhooks/list).
                 * @example wh_01jhx3k8m0
                 */
                webhookId: string;
                /**
                 * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                 * @example ch_demoacmesupport
                 */
                channelId?: string;
                /**
                 * @description Only deliveries in this state.
                 * @example failed
                 */
                status?: "pending" | "succeeded" | "failed";
                /**
                 * @description Page size (default 50).
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description Opaque cursor from a previous answer's `nextCursor` (bound to the channel and the query).
                 * @example eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8
                 */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription’s deliveries, newest event first, as webhooks/deliveries shows them. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalDeliveries"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    portalWebhooksRedeliver: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "webhookId": "wh_01jhx3k8m0",
                 *       "eventId": "evt_0mi2k3x9a3f9c2b1d4e5f6a7b8",
                 *       "channelId": "ch_demoacmesupport"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Id of a webhook subscription of the channel (webhooks/list).
                     * @example wh_01jhx3k8m0
                     */
                    webhookId: string;
                    /**
                     * @description Id of an event of the channel (events/list, or the `webhook-id` header of a delivery).
                     * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
                     */
                    eventId: string;
                    /**
                     * @description The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.
                     * @example ch_demoacmesupport
                     */
                    channelId?: string;
                };
            };
        };
        responses: {
            /** @description The event is queued for the subscription again, with the same webhook-id. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    messageReceivedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id: the same on every attempt (deduplicate by it).
                 * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds of this attempt (signed; refuse old ones).
                 * @example 1738315800
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 HMAC-SHA256 over `id.timestamp.body` with the secret's decoded bytes; several, space-separated, during a rotation.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MessageReceivedEvent"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery succeeded (any 2xx within 10 seconds). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    messageStatusEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id: the same on every attempt (deduplicate by it).
                 * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds of this attempt (signed; refuse old ones).
                 * @example 1738315800
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 HMAC-SHA256 over `id.timestamp.body` with the secret's decoded bytes; several, space-separated, during a rotation.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MessageStatusEvent"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery succeeded (any 2xx within 10 seconds). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    automationExecutionCompletedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id: the same on every attempt (deduplicate by it).
                 * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds of this attempt (signed; refuse old ones).
                 * @example 1738315800
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 HMAC-SHA256 over `id.timestamp.body` with the secret's decoded bytes; several, space-separated, during a rotation.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AutomationExecutionCompletedEvent"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery succeeded (any 2xx within 10 seconds). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    automationExecutionFailedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id: the same on every attempt (deduplicate by it).
                 * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds of this attempt (signed; refuse old ones).
                 * @example 1738315800
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 HMAC-SHA256 over `id.timestamp.body` with the secret's decoded bytes; several, space-separated, during a rotation.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AutomationExecutionFailedEvent"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery succeeded (any 2xx within 10 seconds). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    contactOptedOutEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id: the same on every attempt (deduplicate by it).
                 * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds of this attempt (signed; refuse old ones).
                 * @example 1738315800
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 HMAC-SHA256 over `id.timestamp.body` with the secret's decoded bytes; several, space-separated, during a rotation.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContactOptedOutEvent"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery succeeded (any 2xx within 10 seconds). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    contactOptedInEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id: the same on every attempt (deduplicate by it).
                 * @example evt_0mi2k3x9a3f9c2b1d4e5f6a7b8
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds of this attempt (signed; refuse old ones).
                 * @example 1738315800
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 HMAC-SHA256 over `id.timestamp.body` with the secret's decoded bytes; several, space-separated, during a rotation.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContactOptedInEvent"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery succeeded (any 2xx within 10 seconds). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
